import { errorText } from "../errors/error-text";
import { contentText } from "../messages/content-text";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import { isModuleNotFound } from "../errors/is-module-not-found";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { AgentMessage } from "../messages/agent-message";
import { validateSessionId } from "../messages/session-id";
import type {
  MemoryRecordEntry,
  RecallMemoryProvider,
  RecallReadOptions,
  MemoryRecord,
  MemoryScope,
  RecallWriteOptions,
} from "./memory-provider";
import { tagList } from "./memory-metadata";
import { loadMem0 } from "./load-mem0";
import { listScope, readScope } from "./scope-filter";

/**
 * The part of `mem0ai`'s `MemoryClient` (v3 API) that `Mem0Provider` uses. Inject a real
 * `MemoryClient`, or any object with these methods.
 */
export interface Mem0Client {
  add(messages: { role: "user" | "assistant"; content: string }[], options: Record<string, unknown>): Promise<unknown>;
  search(
    query: string,
    options: { filters: Record<string, unknown>; topK?: number } & Record<string, unknown>,
  ): Promise<unknown>;
  getAll?(options: { filters: Record<string, unknown>; page?: number; pageSize?: number }): Promise<unknown>;
  deleteAll?(options: { userId?: string; runId?: string }): Promise<unknown>;
}

export interface Mem0ProviderOptions {
  /** Mem0 platform API key. @default process.env.MEM0_API_KEY */
  apiKey?: string;
  /** API host (a self-hosted server or a test double). @default "https://api.mem0.ai" */
  host?: string;
  /** A ready client (e.g. `new MemoryClient(...)` from `mem0ai`); then `mem0ai` is never imported. */
  client?: Mem0Client;
  /**
   * `"user"`: memories are the user's (mem0 `user_id`), shared across their sessions; a read
   * without a userId falls back to the session. `"session"`: memories belong to the session
   * (mem0 `run_id`, plus `user_id` when known). @default "user"
   */
  scope?: "session" | "user";
  /** Records a read returns when it gives no `limit`. @default 5 */
  limit?: number;
  /** Let mem0 extract facts from each turn (`true`) or store the messages as they are (`false`). @default true */
  infer?: boolean;
  /** Extra fields sent with every search (e.g. `{ threshold: 0.3, rerank: true }`). */
  searchOptions?: Record<string, unknown>;
  /** Leave mem0ai's telemetry on. Off by default: `MEM0_TELEMETRY=false` is set before mem0ai is imported unless already set. @default false */
  telemetry?: boolean;
}

const memorySchema = z
  .object({
    id: z.union([z.string(), z.number()]).transform(String),
    memory: z.string().optional(),
    data: z.object({ memory: z.string() }).nullish(),
    score: z.number().nullish(),
    userId: z.string().nullish(),
    user_id: z.string().nullish(),
    runId: z.string().nullish(),
    run_id: z.string().nullish(),
    metadata: z.record(z.string(), z.unknown()).nullish(),
    categories: z.array(z.string()).nullish(),
    createdAt: z.union([z.string(), z.number(), z.date()]).nullish(),
    created_at: z.union([z.string(), z.number(), z.date()]).nullish(),
  })
  .transform((item) => ({
    id: item.id,
    content: item.memory ?? item.data?.memory ?? "",
    score: item.score ?? undefined,
    userId: item.userId ?? item.user_id ?? undefined,
    runId: item.runId ?? item.run_id ?? undefined,
    metadata: item.metadata ?? {},
    categories: item.categories ?? undefined,
    createdAt: toTime(item.createdAt ?? item.created_at),
  }));

const listSchema = z.union([
  z.array(z.unknown()),
  z.object({ results: z.array(z.unknown()) }).transform((value) => value.results),
]);

type Mem0Memory = z.output<typeof memorySchema>;

/**
 * Semantic memory on Mem0 (the hosted platform or a compatible server), through the `mem0ai`
 * package — an optional peer, imported only when no `client` is injected. Session ids map to
 * mem0's `run_id`, user ids to `user_id`; `agentName`, tags and the turn's message ids travel in
 * `metadata`. Mem0 extracts facts from a turn, so a record names no single source message;
 * `metadata.messageIds` lists the turn's.
 */
export class Mem0Provider implements RecallMemoryProvider {
  readonly type = "mem0";
  private readonly options: Mem0ProviderOptions;
  private readonly scope: "session" | "user";
  private readonly limit: number;
  private client: Promise<Mem0Client> | undefined;

  constructor(options: Mem0ProviderOptions = {}) {
    this.options = options;
    this.scope = options.scope ?? "user";
    if (this.scope !== "session" && this.scope !== "user") {
      throw new InvalidArgumentError({
        argument: "scope",
        value: options.scope,
        message: 'scope must be "session" or "user".',
      });
    }
    this.limit = options.limit ?? 5;
    if (options.client) this.client = Promise.resolve(options.client);
    else if (!(options.apiKey ?? globalThis.process?.env?.MEM0_API_KEY)) {
      throw new InvalidArgumentError({
        argument: "apiKey",
        message: "Mem0Provider needs an API key: pass { apiKey } or set MEM0_API_KEY (or inject a ready { client }).",
      });
    }
  }

  async write(messages: AgentMessage[], options: RecallWriteOptions = {}): Promise<void> {
    const sessionId = options.sessionId === undefined ? undefined : validateSessionId(options.sessionId);
    const userId = options.userId === undefined ? undefined : validateSessionId(options.userId, "userId");
    if (sessionId === undefined && userId === undefined) {
      throw new InvalidArgumentError({
        argument: "userId",
        message: "Mem0Provider needs a userId or a sessionId to write.",
      });
    }
    const turn = messages.filter(
      (message): message is AgentMessage & { role: "user" | "assistant" } =>
        (message.role === "user" || message.role === "assistant") && contentText(message.content).trim() !== "",
    );
    const tags = tagList(options.tags);
    if (turn.length === 0) return;
    const client = await this.getClient();
    await this.call("write", () =>
      client.add(
        turn.map((message) => ({ role: message.role, content: contentText(message.content) })),
        {
          ...(userId !== undefined ? { userId } : {}),
          ...(sessionId !== undefined ? { runId: sessionId } : {}),
          infer: this.options.infer ?? true,
          metadata: {
            ...(options.agentName ? { agentName: options.agentName } : {}),
            ...(tags.length ? { tags } : {}),
            messageIds: turn.flatMap((message) => (message.id ? [message.id] : [])),
          },
        },
      ),
    );
  }

  async read(options: RecallReadOptions = {}): Promise<MemoryRecord[]> {
    const scope = readScope(this.scope, options);
    const limit = options.limit ?? this.limit;
    const query = options.query?.trim() ?? "";
    // Loaded first, so a missing mem0ai is reported on the first read, even one that asks for nothing.
    const client = await this.getClient();
    if (!scope || limit <= 0 || query === "") return [];
    const tags = tagList(options.tags);
    const raw = await this.call("read", () =>
      client.search(query, {
        ...this.options.searchOptions,
        filters: toFilters(scope),
        topK: tags.length ? limit * 4 : limit,
      }),
    );
    return this.parseList(raw, "read")
      .filter((memory) => inScope(memory, scope) && hasTags(memory, tags))
      .slice(0, limit)
      .map((memory) => ({
        id: memory.id,
        content: memory.content,
        ...(memory.score !== undefined ? { score: memory.score } : {}),
        metadata: {
          ...memory.metadata,
          ...(memory.categories ? { categories: memory.categories } : {}),
          createdAt: memory.createdAt,
        },
      }));
  }

  /** Forgets a scope's memories. Refuses to run without a scope (mem0 would delete the whole project's). */
  async clear(options?: MemoryScope | string): Promise<void> {
    const scope = this.requireScope(options, "clear");
    const client = await this.getClient();
    if (!client.deleteAll)
      throw new InvalidArgumentError({ argument: "client", message: "The injected mem0 client has no deleteAll()." });
    await this.call("clear", () =>
      client.deleteAll!({
        ...(scope.userId !== undefined ? { userId: scope.userId } : {}),
        ...(scope.sessionId !== undefined ? { runId: scope.sessionId } : {}),
      }),
    );
  }

  /** Lists a scope's memories (first 1000). Needs a scope, as mem0's list does. */
  async entries(options?: MemoryScope | string): Promise<MemoryRecordEntry[]> {
    const scope = this.requireScope(options, "entries");
    const client = await this.getClient();
    if (!client.getAll)
      throw new InvalidArgumentError({ argument: "client", message: "The injected mem0 client has no getAll()." });
    const raw = await this.call("entries", () =>
      client.getAll!({ filters: toFilters(scope), page: 1, pageSize: 1000 }),
    );
    return this.parseList(raw, "entries")
      .filter((memory) => inScope(memory, scope))
      .map((memory) => ({
        id: memory.id,
        content: memory.content,
        createdAt: memory.createdAt,
        ...(memory.runId !== undefined ? { sessionId: memory.runId } : {}),
        ...(memory.userId !== undefined ? { userId: memory.userId } : {}),
        ...(typeof memory.metadata.agentName === "string" ? { agentName: memory.metadata.agentName } : {}),
        tags: Array.isArray(memory.metadata.tags)
          ? memory.metadata.tags.filter((tag): tag is string => typeof tag === "string")
          : [],
        metadata: memory.metadata,
      }))
      .sort((left, right) => left.createdAt - right.createdAt);
  }

  private requireScope(options: MemoryScope | string | undefined, operation: string): MemoryScope {
    const scope = listScope(this.scope, options);
    if (scope.userId === undefined && scope.sessionId === undefined) {
      throw new InvalidArgumentError({
        argument: "options",
        message: `Mem0Provider.${operation}() needs a userId or sessionId.`,
      });
    }
    return scope;
  }

  private parseList(raw: unknown, operation: string): Mem0Memory[] {
    const list = listSchema.safeParse(raw);
    if (!list.success) {
      throw new MemoryProviderError({
        provider: this.type,
        operation,
        message: "Mem0 answered with neither a list of memories nor { results: [...] }.",
        cause: list.error,
      });
    }
    return list.data.map((item, index) => {
      const parsed = memorySchema.safeParse(item);
      if (!parsed.success) {
        throw new MemoryProviderError({
          provider: this.type,
          operation,
          message: `Mem0 returned a bad memory at index ${index}: ${parsed.error.issues.map((issue) => `${issue.path.join(".") || "(memory)"}: ${issue.message}`).join("; ")}`,
          cause: parsed.error,
        });
      }
      return parsed.data;
    });
  }

  private async call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (MemoryProviderError.isInstance(error)) throw error;
      throw new MemoryProviderError({
        provider: this.type,
        operation,
        message: `Mem0 ${operation} failed: ${errorText(error)}`,
        cause: error,
      });
    }
  }

  private getClient(): Promise<Mem0Client> {
    this.client ??= (async () => {
      const env = globalThis.process?.env;
      if (!this.options.telemetry && env && env.MEM0_TELEMETRY === undefined) env.MEM0_TELEMETRY = "false";
      let module: { MemoryClient?: new (options: { apiKey: string; host?: string }) => Mem0Client };
      try {
        module = (await loadMem0()) as typeof module;
      } catch (error) {
        this.client = undefined;
        // Not installed (or the edge): a setup error, thrown past the agent's degrade-on-failure (see recall-memories.ts).
        if (UnsupportedRuntimeError.isInstance(error)) throw error;
        if (isModuleNotFound(error, "mem0ai")) {
          throw new UnsupportedRuntimeError({
            feature: "Mem0Provider",
            requirement: 'the optional package "mem0ai" (3.x)',
            message:
              'Mem0Provider needs the optional package "mem0ai", which is not installed: npm install mem0ai@^3 (or pass a ready { client }).',
            cause: error,
          });
        }
        throw new MemoryProviderError({
          provider: this.type,
          operation: "load",
          message: `Mem0Provider could not load the "mem0ai" package: ${errorText(error)}`,
          cause: error,
        });
      }
      const MemoryClient = module.MemoryClient;
      if (!MemoryClient) {
        throw new MemoryProviderError({
          provider: this.type,
          operation: "load",
          message: 'The installed "mem0ai" has no MemoryClient export: install mem0ai@^3.',
        });
      }
      return new MemoryClient({
        apiKey: (this.options.apiKey ?? globalThis.process?.env?.MEM0_API_KEY)!,
        ...(this.options.host ? { host: this.options.host.replace(/\/+$/, "") } : {}),
      });
    })();
    return this.client;
  }
}

/** mem0 filters for a scope: one condition as is, two joined with AND. */
function toFilters(scope: MemoryScope): Record<string, unknown> {
  const conditions: Record<string, string>[] = [];
  if (scope.userId !== undefined) conditions.push({ user_id: scope.userId });
  if (scope.sessionId !== undefined) conditions.push({ run_id: scope.sessionId });
  return conditions.length === 1 ? conditions[0]! : { AND: conditions };
}

/** Defence in depth: a memory mem0 labels with another user or run is never passed on. */
function inScope(memory: Mem0Memory, scope: MemoryScope): boolean {
  if (scope.userId !== undefined && memory.userId !== undefined && memory.userId !== scope.userId) return false;
  if (scope.sessionId !== undefined && memory.runId !== undefined && memory.runId !== scope.sessionId) return false;
  return true;
}

function hasTags(memory: Mem0Memory, tags: string[]): boolean {
  if (tags.length === 0) return true;
  const own = Array.isArray(memory.metadata.tags) ? memory.metadata.tags : [];
  return tags.every((tag) => own.includes(tag));
}

function toTime(value: string | number | Date | null | undefined): number {
  if (value === null || value === undefined) return 0;
  const time = value instanceof Date ? value.getTime() : typeof value === "number" ? value : Date.parse(value);
  return Number.isFinite(time) ? time : 0;
}
