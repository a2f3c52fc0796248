import type { Redis } from "@upstash/redis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { StoreError } from "../../errors/store-error";
import { AbortError } from "../../errors/abort-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
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
import { SessionBusyError } from "../../errors/session-busy-error";
import {
  appendReply,
  hashReply,
  integerReply,
  replaceReply,
  stringListReply,
  tailReply,
  UnexpectedReplyError,
} from "../redis/redis-replies";
import { withinDeadline } from "../redis/redis-deadline";
import {
  fencedScriptKeys,
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
import { checkUpstashOptions, type UpstashRedisMemoryStoreOptions } from "./upstash-options";
import {
  evalScript,
  jsonReply,
  pipelineWithScript,
  readRaw,
  sessionScript,
  tailScript,
  upstashErrorText,
  upstashSortedSets,
} from "./upstash-commands";

const store = "UpstashRedisMemoryStore";

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
  private readonly requestTimeoutMs: number;
  private readonly index: RedisSessionIndex;
  /** Token of the session lock this instance holds (or held until it was taken over), per session: its writes are fenced by it. */
  private readonly held = new Map<string, string>();

  constructor(options: UpstashRedisMemoryStoreOptions) {
    checkUpstashOptions(options);
    this.client = options.client;
    this.prefix = redisPrefixOption(options.prefix);
    this.ttl = positiveMillisecondsOption(options.ttl, "ttl");
    this.lockLeaseMs = positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000;
    this.requestTimeoutMs = positiveMillisecondsOption(options.requestTimeoutMs, "requestTimeoutMs") || 10_000;
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
    const { total, raw } = await this.call(operation, sessionId, async () =>
      tailReply(jsonReply(await evalScript(this.client, tailScript, [keys.messages], [start]))),
    );
    const first = total - raw.length;
    return {
      messages: raw.map((text, index) =>
        parseStoredJson<AgentMessage>(text, { store, operation, sessionId, record: `message ${first + index}` }),
      ),
      total,
    };
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    const operation = "setMessages";
    const token = this.held.get(sessionId) ?? "";
    const outcome = await this.writeSession(
      operation,
      sessionId,
      replaceScript,
      [token, ...messagesArguments(messages)],
      {
        fenced: true,
        parse: replaceReply,
      },
    );
    if (outcome === "lost") throw new SessionLockLostError({ store, operation, sessionId });
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    if (messages.length === 0) {
      validateSessionId(sessionId);
      return;
    }
    const operation = "appendMessages";
    // Fenced by the lock this instance holds on the session: a holder whose lease was taken over is refused.
    const token = this.held.get(sessionId) ?? "";
    const args = [token, "0", ...messagesArguments(messages)];
    const outcome = await this.writeSession(operation, sessionId, appendScript, args, {
      fenced: true,
      parse: appendReply,
    });
    if (outcome === "lost") throw new SessionLockLostError({ store, operation, sessionId });
  }

  async clearMessages(sessionId: string): Promise<void> {
    const keys = this.keys(sessionId);
    await this.call("clearMessages", sessionId, async () => {
      integerReply(await this.client.del(...sessionScriptKeys(keys)), "DEL's count");
      await this.index.remove([sessionId]);
    });
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    const key = this.keys(scopeId, "scopeId").facts;
    const raw = await this.call("getFacts", scopeId, async () =>
      hashReply(await readRaw(this.client, "HGETALL", key), "the facts hash"),
    );
    return Object.entries(raw).map(([name, text]) =>
      parseStoredJson<Fact>(text, { store, operation: "getFacts", sessionId: scopeId, record: `fact "${name}"` }),
    );
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    const key = this.keys(scopeId, "scopeId").facts;
    // The fact's one-script write and the scope's entry in the index set, in one pipeline.
    await this.call("setFact", scopeId, () =>
      pipelineWithScript(
        this.client,
        factScript,
        [key],
        [fact.key, JSON.stringify(fact), String(this.ttl)],
        (pipeline) => pipeline.sadd(this.factScopesKey, scopeId),
      ).then((reply) => integerReply(reply, "the fact script's 1")),
    );
  }

  async factScopes(): Promise<string[]> {
    return (
      await this.call("factScopes", undefined, async () =>
        stringListReply(await readRaw(this.client, "SMEMBERS", this.factScopesKey), "the fact scopes"),
      )
    ).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    const factsKey = this.keys(scopeId, "scopeId").facts;
    return (
      (await this.call("deleteFact", scopeId, async () =>
        integerReply(await this.client.hdel(factsKey, key), "HDEL's count"),
      )) > 0
    );
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    const keys = this.keys(sessionId);
    const [meta, count] = await this.call("getSession", sessionId, async () => {
      const reply = jsonReply(await evalScript(this.client, sessionScript, [keys.meta, keys.messages], []));
      const what = "the session script's {metadata, message count}";
      if (!Array.isArray(reply) || reply.length !== 2) throw new UnexpectedReplyError(what, reply);
      return [hashReply(reply[0], what), integerReply(reply[1], what)] as const;
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
      const result = await this.call("prune", id, async () =>
        integerReply(
          await evalScript(this.client, pruneScript, sessionScriptKeys(keys), [String(options.olderThan)]),
          "the prune script's -1, 0 or 1",
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
      stringListReply(
        await readRaw(this.client, "LRANGE", keys.summaries, [count === Infinity ? 0 : -count, -1]),
        "the summaries",
      ),
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
    const renew = (leaseMs: number) =>
      this.call("lockSession", sessionId, async () =>
        integerReply(
          await evalScript(this.client, renewScript, [key], [token, String(leaseMs)]),
          "the renew script's 0 or 1",
        ),
      );
    try {
      await pollLock(
        sessionId,
        options.timeoutMs,
        async () => {
          const reply = await this.call(
            "lockSession",
            sessionId,
            () => this.client.set(key, token, { nx: true, px: this.lockLeaseMs }),
            options.signal,
          );
          if (reply === "OK") return true;
          if (reply === null) return undefined;
          throw this.storeError("lockSession", sessionId, new UnexpectedReplyError('SET NX\'s "OK" or nil', reply));
        },
        options.signal,
      );
    } catch (error) {
      // A take whose answer never came (a timeout, an abort) may still have landed: give it back.
      if (!SessionBusyError.isInstance(error)) void renew(0).catch(() => {});
      throw error;
    }
    this.held.set(sessionId, token);
    return holdLease({
      leaseMs: this.lockLeaseMs,
      renew: async () => (await renew(this.lockLeaseMs)) === 1,
      release: async () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        await renew(0);
      },
    });
  }

  private get factScopesKey(): string {
    return redisFactScopesKey(this.prefix);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  /** Runs a session write script (KEYS: the session's, with its lock when `fenced`; ARGV: now, ttl, ...extra); resolves to its reply. */
  private async writeSession<T = unknown>(
    operation: string,
    sessionId: string,
    source: string,
    extra: string[],
    options: { fenced?: boolean; parse?: (reply: unknown) => T } = {},
  ): Promise<T> {
    const keys = this.keys(sessionId);
    const now = Date.now();
    const scriptKeys = options.fenced ? fencedScriptKeys(keys) : sessionScriptKeys(keys);
    return await this.call(operation, sessionId, async () => {
      // Index first, in the same pipeline (Upstash runs a pipeline's commands in order): a failure
      // in between leaves an index entry without data, which entries() drops, never data that no
      // index knows about.
      const reply = await pipelineWithScript(
        this.client,
        source,
        scriptKeys,
        [String(now), String(this.ttl), ...extra],
        (pipeline) => pipeline.zadd(this.index.keyOf(sessionId), { score: now, member: sessionId }),
      );
      return options.parse ? options.parse(reply) : (reply as T);
    });
  }

  /**
   * Runs one operation's requests, at most `requestTimeoutMs` (and no longer than `signal` lets
   * it); any failure but a typed agentcore error becomes a `StoreError` naming the operation and
   * the session.
   */
  private async call<T>(
    operation: string,
    sessionId: string | undefined,
    body: () => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    try {
      return await withinDeadline(body(), this.requestTimeoutMs, signal, sessionId);
    } catch (error) {
      if (StoreError.isInstance(error) || InvalidArgumentError.isInstance(error) || AbortError.isInstance(error))
        throw error;
      throw this.storeError(operation, sessionId, error);
    }
  }

  private storeError(operation: string, sessionId: string | undefined, error: unknown): StoreError {
    return new StoreError({
      store,
      operation,
      ...(sessionId === undefined ? {} : { sessionId }),
      message: `Upstash Redis failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${upstashErrorText(error)}`,
      cause: error,
    });
  }
}
