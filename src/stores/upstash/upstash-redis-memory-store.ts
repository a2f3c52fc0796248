import type { Redis } from "@upstash/redis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIds } from "../../messages/message-ids";
import { holdLease } from "../hold-lease";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  SessionEntry,
  SessionLockOptions,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { pollLock } from "../poll-lock";
import { rejectUnknownOptions } from "../reject-unknown-options";
import {
  messagesArguments,
  positiveMillisecondsOption,
  redisFactScopesKey,
  redisPrefixOption,
  redisSessionEntry,
  redisSessionKeys,
  sessionMetaFields,
  sessionScriptKeys,
  type RedisSessionKeys,
} from "../redis/redis-layout";
import {
  appendScript,
  factScript,
  pruneScript,
  renewScript,
  replaceScript,
  summaryScript,
  touchScript,
} from "../redis/redis-scripts";
import { RedisSessionIndex } from "../redis/redis-session-index";
import { parseStoredJson } from "../stored-json";
import { tailLimit } from "../tail-limit";
import { summaryCount } from "../summary-count";
import {
  evalScript,
  hashRecord,
  isNoScript,
  jsonReply,
  readRaw,
  scriptSha,
  sessionScript,
  stringList,
  tailScript,
  upstashErrorText,
  upstashSortedSets,
} from "./upstash-commands";

/** Options of {@link UpstashRedisMemoryStore}. */
export interface UpstashRedisMemoryStoreOptions {
  /**
   * An `@upstash/redis` client you own: `Redis.fromEnv()` (reads `UPSTASH_REDIS_REST_URL` and
   * `UPSTASH_REDIS_REST_TOKEN`) or `new Redis({ url, token })`; from `@upstash/redis/cloudflare`
   * on Cloudflare Workers. Any of its options works (automatic deserialization on or off).
   */
  client: Redis;
  /** Put before every key. Must not contain `{` or `}`. @default "agentcore:" */
  prefix?: string;
  /** Milliseconds a session (and a fact scope) lives after its last write; none when omitted. */
  ttl?: number;
  /** How long a session lock lives without being renewed, in ms (a crashed holder frees it after this). @default 30_000 */
  lockLeaseMs?: number;
}

const store = "UpstashRedisMemoryStore";
const knownOptions = [
  "client",
  "prefix",
  "ttl",
  "lockLeaseMs",
] as const satisfies readonly (keyof UpstashRedisMemoryStoreOptions)[];

/**
 * Keeps sessions in Redis over HTTP with `@upstash/redis`: the store for edge functions (Vercel
 * Edge, Cloudflare Workers) and serverless, where no TCP connection lives between requests. It
 * uses only the client and Web APIs (fetch, Web Crypto), no Node built-in.
 *
 * Same key layout, Lua scripts and guarantees as `RedisMemoryStore` (agentcore/redis), so one
 * database can be used through either: every write to a session is one script (atomic; appends
 * idempotent by message id), tail reads are one script (one snapshot, O(limit)), sessions are
 * indexed in 16 sorted sets for `entries()` and `prune()` (never KEYS or SCAN), and the session
 * lock is `SET NX PX` with a token, renewed and released by a script only while it is still ours.
 * A write sends the index entry and the script in one pipeline (one HTTP request, run in order).
 */
export class UpstashRedisMemoryStore implements MemoryStore {
  private readonly client: Redis;
  private readonly prefix: string;
  private readonly ttl: number;
  private readonly lockLeaseMs: number;
  private readonly index: RedisSessionIndex;

  constructor(options: UpstashRedisMemoryStoreOptions) {
    const client: Record<string, unknown> | undefined =
      options != null && typeof options === "object"
        ? (options.client as unknown as Record<string, unknown>)
        : undefined;
    if (client == null || typeof client.evalsha !== "function" || typeof client.pipeline !== "function") {
      throw new InvalidArgumentError({
        argument: "client",
        message:
          'new UpstashRedisMemoryStore() needs { client }: an @upstash/redis client, e.g. Redis.fromEnv() or new Redis({ url, token }) from "@upstash/redis".',
      });
    }
    if (typeof client.connect === "function" && "status" in client) {
      throw new InvalidArgumentError({
        argument: "client",
        message:
          'new UpstashRedisMemoryStore() was given an ioredis client: use RedisMemoryStore from "agentcore/redis" for it, or pass an @upstash/redis client here.',
      });
    }
    rejectUnknownOptions(store, options, knownOptions, {
      redis: "client",
      keyPrefix: "prefix",
      namespace: "prefix",
      ttlMs: "ttl",
      url: "client",
      token: "client",
    });
    this.client = options.client;
    this.prefix = redisPrefixOption(options.prefix);
    this.ttl = positiveMillisecondsOption(options.ttl, "ttl");
    this.lockLeaseMs = positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000;
    this.index = new RedisSessionIndex(upstashSortedSets(this.client), this.prefix);
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    return (await this.readTail("getMessages", sessionId, Infinity)).messages;
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, tailLimit(limit, store));
  }

  /** The last `count` messages and the list's length, in one script. */
  private async readTail(operation: string, sessionId: string, count: number): Promise<MessageTail> {
    const keys = this.keys(sessionId);
    // LRANGE wants integers: an Infinity count is the whole list, 0..-1.
    const start = count === 0 ? "" : count === Infinity ? "0" : String(-count);
    const [total, raw] = await this.call(operation, sessionId, async () => {
      const reply = jsonReply(await evalScript(this.client, tailScript, [keys.messages], [start]));
      const [length, items] = Array.isArray(reply) ? reply : [];
      return [Number(length ?? 0), stringList(items)] as const;
    });
    const first = total - raw.length;
    return {
      messages: raw.map((text, index) =>
        parseStoredJson<AgentMessage>(text, { store, operation, sessionId, record: `message ${first + index}` }),
      ),
      total,
    };
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIds(messages);
    await this.writeSession("setMessages", sessionId, replaceScript, messagesArguments(messages));
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIds(messages);
    if (messages.length === 0) {
      validateSessionId(sessionId);
      return;
    }
    await this.writeSession("appendMessages", sessionId, appendScript, messagesArguments(messages));
  }

  async clearMessages(sessionId: string): Promise<void> {
    const keys = this.keys(sessionId);
    await this.call("clearMessages", sessionId, async () => {
      await this.client.del(...sessionScriptKeys(keys));
      await this.index.remove([sessionId]);
    });
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    const key = this.keys(scopeId, "scopeId").facts;
    const raw = await this.call("getFacts", scopeId, async () =>
      hashRecord(await readRaw(this.client, "HGETALL", key)),
    );
    return Object.entries(raw).map(([name, text]) =>
      parseStoredJson<Fact>(text, { store, operation: "getFacts", sessionId: scopeId, record: `fact "${name}"` }),
    );
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    const key = this.keys(scopeId, "scopeId").facts;
    // The fact's one-script write and the scope's entry in the index set, in one pipeline.
    await this.call("setFact", scopeId, () =>
      this.pipelineWithScript(factScript, [key], [fact.key, JSON.stringify(fact), String(this.ttl)], (pipeline) =>
        pipeline.sadd(this.factScopesKey, scopeId),
      ),
    );
  }

  async factScopes(): Promise<string[]> {
    return (
      await this.call("factScopes", undefined, async () =>
        stringList(await readRaw(this.client, "SMEMBERS", this.factScopesKey)),
      )
    ).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    const factsKey = this.keys(scopeId, "scopeId").facts;
    return Number(await this.call("deleteFact", scopeId, () => this.client.hdel(factsKey, key))) > 0;
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    const keys = this.keys(sessionId);
    const [meta, count] = await this.call("getSession", sessionId, async () => {
      const reply = jsonReply(await evalScript(this.client, sessionScript, [keys.meta, keys.messages], []));
      const [flat, length] = Array.isArray(reply) ? reply : [];
      return [hashRecord(flat), Number(length ?? 0)] as const;
    });
    return redisSessionEntry(store, sessionId, meta, count, keys.meta);
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    await this.writeSession("updateSession", sessionId, touchScript, sessionMetaFields(metadata));
  }

  async entries(): Promise<SessionEntry[]> {
    const ids = await this.call("entries", undefined, () => this.index.all());
    const found = await Promise.all(ids.map((id) => this.getSession(id).then((entry) => [id, entry] as const)));
    const missing = found.filter(([, entry]) => entry === undefined).map(([id]) => id);
    await this.call("entries", undefined, () => this.index.remove(missing)); // expired by ttl
    return found.flatMap(([, entry]) => (entry ? [entry] : []));
  }

  async prune(options: { olderThan: number }): Promise<string[]> {
    const candidates = await this.call("prune", undefined, () => this.index.writtenBefore(options.olderThan));
    const pruned: string[] = [];
    for (const id of candidates) {
      const keys = this.keys(id);
      const result = Number(
        await this.call("prune", id, () =>
          evalScript(this.client, pruneScript, sessionScriptKeys(keys), [String(options.olderThan)]),
        ),
      );
      if (result === 1) pruned.push(id);
      if (result !== -1) await this.call("prune", id, () => this.index.remove([id]));
    }
    return pruned;
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    const keys = this.keys(sessionId);
    const count = summaryCount(options, store);
    if (count === 0) return [];
    const raw = await this.call("getSummaries", sessionId, async () =>
      stringList(await readRaw(this.client, "LRANGE", keys.summaries, [count === Infinity ? 0 : -count, -1])),
    );
    return raw.map((text, index) =>
      parseStoredJson<SummaryRecord>(text, { store, operation: "getSummaries", sessionId, record: `summary ${index}` }),
    );
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    await this.writeSession("saveSummary", sessionId, summaryScript, [record.id, JSON.stringify(record)]);
  }

  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const key = this.keys(sessionId).lock;
    const token = globalThis.crypto.randomUUID();
    await pollLock(
      sessionId,
      options.timeoutMs,
      async () =>
        (await this.call("lockSession", sessionId, () =>
          this.client.set(key, token, { nx: true, px: this.lockLeaseMs }),
        )) === "OK"
          ? true
          : undefined,
      options.signal,
    );
    const renew = (leaseMs: number) => evalScript(this.client, renewScript, [key], [token, String(leaseMs)]);
    return holdLease({
      leaseMs: this.lockLeaseMs,
      renew: async () => Number(await renew(this.lockLeaseMs)) === 1,
      release: async () => void (await renew(0)),
    });
  }

  private get factScopesKey(): string {
    return redisFactScopesKey(this.prefix);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  private async writeSession(operation: string, sessionId: string, source: string, extra: string[]): Promise<void> {
    const keys = this.keys(sessionId);
    const now = Date.now();
    await this.call(operation, sessionId, () =>
      // Index first, in the same pipeline (Upstash runs a pipeline's commands in order): a failure
      // in between leaves an index entry without data, which entries() drops, never data that no
      // index knows about.
      this.pipelineWithScript(source, sessionScriptKeys(keys), [String(now), String(this.ttl), ...extra], (pipeline) =>
        pipeline.zadd(this.index.keyOf(sessionId), { score: now, member: sessionId }),
      ),
    );
  }

  /**
   * One pipeline (one HTTP request): an index write (`first`), then the script by EVALSHA. When
   * the server does not have the script, the pipeline is sent again with EVAL (repeating the index
   * write, which is idempotent).
   */
  private async pipelineWithScript(
    source: string,
    keys: string[],
    args: string[],
    first: (pipeline: ReturnType<Redis["pipeline"]>) => unknown,
  ): Promise<void> {
    const sha = await scriptSha(source);
    const send = async (byHash: boolean) => {
      const pipeline = this.client.pipeline();
      first(pipeline);
      if (byHash) pipeline.evalsha(sha, keys, args);
      else pipeline.eval(source, keys, args);
      await pipeline.exec();
    };
    try {
      await send(true);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      await send(false);
    }
  }

  private async call<T>(operation: string, sessionId: string | undefined, body: () => Promise<T>): Promise<T> {
    try {
      return await body();
    } catch (error) {
      if (StoreError.isInstance(error) || InvalidArgumentError.isInstance(error)) throw error;
      throw new StoreError({
        store,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `Upstash Redis failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${upstashErrorText(error)}`,
        cause: error,
      });
    }
  }
}
