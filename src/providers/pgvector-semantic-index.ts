import { errorText } from "../errors/error-text";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import type { ScoredDocument, SemanticDocument, SemanticFilter, SemanticIndex } from "./semantic-index";

/** Anything with `query(text, params)` resolving to `{ rows }`: a `pg` Pool or Client, PGlite, … */
export interface SqlClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export interface PgVectorSemanticIndexOptions {
  /** Your PostgreSQL connection (`new pg.Pool(...)`, PGlite with the vector extension, …); you own and close it. */
  client: SqlClient;
  /** Table holding the memories; created if missing. @default "agentcore_memories" */
  table?: string;
  /**
   * Embedding length. With it, the column is `vector(dimensions)` with an HNSW cosine index;
   * without it, an untyped `vector` column searched exactly.
   */
  dimensions?: number;
  /** Text-search configuration of the lexical ranking. @default "english" */
  textSearchConfig?: string;
  /** Create the extension, table and indexes on first use. @default true */
  createSchema?: boolean;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A `SemanticIndex` in PostgreSQL with pgvector: vectors ranked by cosine distance (`<=>`),
 * text by PostgreSQL full-text search (`ts_rank` over an any-term query, stemmed by
 * `textSearchConfig`). Rows keep their write order per session, for neighbouring turns.
 */
export class PgVectorSemanticIndex implements SemanticIndex {
  private readonly client: SqlClient;
  private readonly table: string;
  private readonly dimensions: number | undefined;
  private readonly config: string;
  private readonly createSchema: boolean;
  private ready: Promise<void> | undefined;

  constructor(options: PgVectorSemanticIndexOptions) {
    if (!options?.client || typeof options.client.query !== "function") {
      throw new InvalidArgumentError({
        argument: "client",
        message:
          "PgVectorSemanticIndex needs `client`: a pg Pool/Client or PGlite (anything with query(text, params)).",
      });
    }
    this.client = options.client;
    this.table = options.table ?? "agentcore_memories";
    if (!IDENTIFIER.test(this.table)) {
      throw new InvalidArgumentError({
        argument: "table",
        value: options.table,
        message: "table must be a lower-case SQL identifier (letters, digits, underscores).",
      });
    }
    if (
      options.dimensions !== undefined &&
      (!Number.isInteger(options.dimensions) || options.dimensions < 1 || options.dimensions > 16000)
    ) {
      throw new InvalidArgumentError({
        argument: "dimensions",
        value: options.dimensions,
        message: "dimensions must be a whole number from 1 to 16000.",
      });
    }
    this.dimensions = options.dimensions;
    this.config = options.textSearchConfig ?? "english";
    if (!IDENTIFIER.test(this.config)) {
      throw new InvalidArgumentError({
        argument: "textSearchConfig",
        value: options.textSearchConfig,
        message: "textSearchConfig must be a text-search configuration name, e.g. english.",
      });
    }
    this.createSchema = options.createSchema ?? true;
  }

  async add(documents: SemanticDocument[]): Promise<void> {
    if (documents.length === 0) return;
    await this.ensureSchema();
    for (const document of documents) {
      await this.run(
        "add",
        `INSERT INTO ${this.table} (id, session_id, user_id, message_id, agent_name, tags, role, content, created_at, embedding, mentions, times)
         VALUES ($1, $2, $3, $4, $5, $6::text[], $7, $8, $9, $10::vector, $11::double precision[], $12::nummultirange)
         ON CONFLICT (session_id, message_id) DO UPDATE SET
           id = EXCLUDED.id, user_id = EXCLUDED.user_id, agent_name = EXCLUDED.agent_name, tags = EXCLUDED.tags,
           role = EXCLUDED.role, content = EXCLUDED.content, created_at = EXCLUDED.created_at, embedding = EXCLUDED.embedding,
           mentions = EXCLUDED.mentions, times = EXCLUDED.times`,
        [
          document.id,
          document.sessionId ?? "",
          document.userId ?? null,
          document.messageId ?? null,
          document.agentName ?? null,
          document.tags,
          document.role ?? null,
          document.content,
          document.createdAt,
          document.vector ? `[${document.vector.join(",")}]` : null,
          document.mentions?.length ? document.mentions : null,
          timesOf(document),
        ],
      );
    }
  }

  async searchText(query: string, filter: SemanticFilter, limit: number): Promise<ScoredDocument[]> {
    await this.ensureSchema();
    const { where, params } = this.where(filter, 2);
    // plainto_tsquery ANDs the terms; an any-term (OR) query suits recall better.
    const rows = await this.run(
      "searchText",
      `WITH q AS (SELECT NULLIF(replace(plainto_tsquery('${this.config}', $1)::text, '&', '|'), '')::tsquery AS query)
       SELECT m.*, ts_rank(to_tsvector('${this.config}', m.content), q.query) AS score
       FROM ${this.table} m, q
       WHERE q.query IS NOT NULL AND to_tsvector('${this.config}', m.content) @@ q.query AND ${where}
       ORDER BY score DESC, m.position ASC LIMIT ${Math.max(0, Math.floor(limit))}`,
      [query, ...params],
    );
    return rows.map((row) => ({ document: toDocument(row), score: Number(row.score) }));
  }

  async searchVector(vector: number[], filter: SemanticFilter, limit: number): Promise<ScoredDocument[]> {
    await this.ensureSchema();
    const { where, params } = this.where(filter, 2);
    const rows = await this.run(
      "searchVector",
      `SELECT m.*, 1 - (m.embedding <=> $1::vector) AS score FROM ${this.table} m
       WHERE m.embedding IS NOT NULL AND ${where}
       ORDER BY m.embedding <=> $1::vector ASC LIMIT ${Math.max(0, Math.floor(limit))}`,
      [`[${vector.join(",")}]`, ...params],
    );
    return rows.map((row) => ({ document: toDocument(row), score: Number(row.score) }));
  }

  async neighbours(
    id: string,
    before: number,
    after: number,
  ): Promise<{ before: SemanticDocument[]; after: SemanticDocument[] }> {
    await this.ensureSchema();
    const side = async (operator: "<" | ">", order: "DESC" | "ASC", count: number) =>
      count <= 0
        ? []
        : (
            await this.run(
              "neighbours",
              `SELECT m.* FROM ${this.table} m, ${this.table} hit
               WHERE hit.id = $1 AND m.session_id = hit.session_id AND m.position ${operator} hit.position
               ORDER BY m.position ${order} LIMIT ${Math.floor(count)}`,
              [id],
            )
          ).map(toDocument);
    const earlier = await side("<", "DESC", before);
    return { before: earlier.reverse(), after: await side(">", "ASC", after) };
  }

  async list(filter: SemanticFilter): Promise<SemanticDocument[]> {
    await this.ensureSchema();
    const { where, params } = this.where(filter, 1);
    const rows = await this.run(
      "list",
      `SELECT m.* FROM ${this.table} m WHERE ${where} ORDER BY m.created_at ASC, m.position ASC`,
      params,
    );
    return rows.map(toDocument);
  }

  async delete(filter: SemanticFilter): Promise<void> {
    await this.ensureSchema();
    const { where, params } = this.where(filter, 1);
    await this.run("delete", `DELETE FROM ${this.table} m WHERE ${where}`, params);
  }

  private where(filter: SemanticFilter, first: number): { where: string; params: unknown[] } {
    const conditions: string[] = ["TRUE"];
    const params: unknown[] = [];
    const add = (sql: (placeholder: string) => string, value: unknown) => {
      params.push(value);
      conditions.push(sql(`$${first + params.length - 1}`));
    };
    if (filter.sessionId !== undefined) add((placeholder) => `m.session_id = ${placeholder}`, filter.sessionId);
    if (filter.userId !== undefined) add((placeholder) => `m.user_id = ${placeholder}`, filter.userId);
    if (filter.tags?.length) add((placeholder) => `m.tags @> ${placeholder}::text[]`, filter.tags);
    if (filter.after !== undefined || filter.before !== undefined) {
      // Its own time in the window, or a mentioned [start, end) pair overlapping it (see `inWindow`):
      // one overlap test on `times`, which a GiST index answers.
      params.push(timeBound(filter.after), timeBound(filter.before));
      conditions.push(
        `m.times && numrange($${first + params.length - 2}::numeric, $${first + params.length - 1}::numeric, '[)')`,
      );
    }
    return { where: conditions.join(" AND "), params };
  }

  private ensureSchema(): Promise<void> {
    if (!this.createSchema) return Promise.resolve();
    this.ready ??= (async () => {
      const column = this.dimensions ? `vector(${this.dimensions})` : "vector";
      await this.run("createSchema", "CREATE EXTENSION IF NOT EXISTS vector", []);
      await this.run(
        "createSchema",
        `CREATE TABLE IF NOT EXISTS ${this.table} (
           position bigserial,
           id text PRIMARY KEY,
           session_id text NOT NULL,
           user_id text,
           message_id text,
           agent_name text,
           tags text[] NOT NULL DEFAULT '{}',
           role text,
           content text NOT NULL,
           created_at double precision NOT NULL,
           embedding ${column},
           mentions double precision[],
           UNIQUE (session_id, message_id)
         )`,
        [],
      );
      // Tables made before mentions were kept.
      await this.run(
        "createSchema",
        `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS mentions double precision[]`,
        [],
      );
      // Tables made before `times` was kept: the column, filled from each row's own time and mentions.
      await this.run("createSchema", `ALTER TABLE ${this.table} ADD COLUMN IF NOT EXISTS times nummultirange`, []);
      await this.run(
        "createSchema",
        `UPDATE ${this.table} m SET times = (SELECT range_agg(span) FROM (
           SELECT numrange(m.created_at::numeric, m.created_at::numeric, '[]') AS span
           UNION ALL SELECT numrange(m.mentions[i]::numeric, m.mentions[i + 1]::numeric, '[)')
           FROM generate_subscripts(m.mentions, 1) AS i WHERE i % 2 = 1) AS spans)
         WHERE m.times IS NULL`,
        [],
      );
      await this.run(
        "createSchema",
        `CREATE INDEX IF NOT EXISTS ${this.table}_times_idx ON ${this.table} USING gist (times)`,
        [],
      );
      await this.run(
        "createSchema",
        `CREATE INDEX IF NOT EXISTS ${this.table}_user_idx ON ${this.table} (user_id, position)`,
        [],
      );
      await this.run(
        "createSchema",
        `CREATE INDEX IF NOT EXISTS ${this.table}_session_idx ON ${this.table} (session_id, position)`,
        [],
      );
      await this.run(
        "createSchema",
        `CREATE INDEX IF NOT EXISTS ${this.table}_text_idx ON ${this.table} USING gin (to_tsvector('${this.config}', content))`,
        [],
      );
      if (this.dimensions) {
        await this.run(
          "createSchema",
          `CREATE INDEX IF NOT EXISTS ${this.table}_embedding_idx ON ${this.table} USING hnsw (embedding vector_cosine_ops)`,
          [],
        );
      }
    })().catch((error) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  private async run(operation: string, text: string, params: unknown[]): Promise<Record<string, unknown>[]> {
    try {
      return (await this.client.query(text, params)).rows;
    } catch (error) {
      throw new MemoryProviderError({
        provider: "pgvector",
        operation,
        message: `PostgreSQL ${operation} on "${this.table}" failed: ${errorText(error)}${
          operation === "createSchema" ? " (is the pgvector extension installed? CREATE EXTENSION vector)" : ""
        }`,
        cause: error,
      });
    }
  }
}

/**
 * A document's times as a multirange literal: its own time as a point, each mention as [start, end).
 * An empty mention ([t, t)) is kept as the point t.
 */
function timesOf(document: SemanticDocument): string {
  const spans = [`[${document.createdAt},${document.createdAt}]`];
  const mentions = document.mentions ?? [];
  for (let index = 0; index + 1 < mentions.length; index += 2) {
    const [start, end] = [mentions[index]!, mentions[index + 1]!];
    spans.push(start < end ? `[${start},${end})` : `[${start},${start}]`);
  }
  return `{${spans.join(",")}}`;
}

/** A window bound for `numrange` (null: unbounded). */
function timeBound(time: number | undefined): string | null {
  return time === undefined || !Number.isFinite(time) ? null : String(time);
}

function toDocument(row: Record<string, unknown>): SemanticDocument {
  return {
    id: String(row.id),
    content: String(row.content),
    ...(row.message_id != null ? { messageId: String(row.message_id) } : {}),
    ...(row.session_id ? { sessionId: String(row.session_id) } : {}),
    ...(row.user_id != null ? { userId: String(row.user_id) } : {}),
    ...(row.agent_name != null ? { agentName: String(row.agent_name) } : {}),
    tags: Array.isArray(row.tags) ? row.tags.map(String) : [],
    ...(row.role != null ? { role: row.role as SemanticDocument["role"] } : {}),
    createdAt: Number(row.created_at),
    ...(Array.isArray(row.mentions) && row.mentions.length ? { mentions: row.mentions.map(Number) } : {}),
  };
}
