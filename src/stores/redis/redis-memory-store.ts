import { errorText } from "../../errors/error-text";
import type { Cluster, Redis } from "ioredis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  SessionEntry,
  SessionLockOptions,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { execMulti, RedisCommands, redisScript, sortedSetCommands, type RedisScript } from "./redis-commands";
import { replicaWaitOption, type RedisReplicaWait } from "./redis-replica-wait";
import { RedisSessionIndex } from "./redis-session-index";
import { RedisSessionLocks } from "./redis-session-locks";
import {
  appendScript as appendSource,
  appendUnlockScript as appendUnlockSource,
  factScript as factSource,
  pruneScript as pruneSource,
  replaceScript as replaceSource,
  summaryScript as summarySource,
  touchScript as touchSource,
} from "./redis-scripts";
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
} from "./redis-layout";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { validateSessionId } from "../../messages/session-id";
import { validateMessageIds } from "../../messages/message-ids";
import { parseStoredJson } from "../stored-json";
import { tailLimit } from "../tail-limit";
import { summaryCount } from "../summary-count";
import { turnFolding } from "../turn-folding";
import { RedisTurnFolding } from "./redis-turn-folding";

/** Options of {@link RedisMemoryStore}. */
export interface RedisMemoryStoreOptions {
  /** An ioredis client you own (`new Redis(url)` or `new Cluster(nodes)`). The store never closes it. */
  client: Redis | Cluster;
  /** Put before every key. Must not contain `{` or `}`. @default "agentcore:" */
  prefix?: string;
  /** Milliseconds a session (and a fact scope) lives after its last write; none when omitted. */
  ttl?: number;
  /** How long a session lock lives without being renewed, in ms (a crashed holder frees it after this). @default 30_000 */
  lockLeaseMs?: number;
  /**
   * Wait, after each write of messages, metadata, summaries or facts, until this many replicas
   * have it (Redis `WAIT`), so a failover cannot lose an acknowledged turn; a write not
   * acknowledged in time is a `StoreError` (it is stored on the master: a retry never duplicates).
   * None when omitted: Redis replicates asynchronously.
   */
  waitForReplicas?: RedisReplicaWait;
}

const store = "RedisMemoryStore";
const knownOptions = [
  "client",
  "prefix",
  "ttl",
  "lockLeaseMs",
  "waitForReplicas",
] as const satisfies readonly (keyof RedisMemoryStoreOptions)[];

const appendScript = redisScript(appendSource);
const replaceScript = redisScript(replaceSource);
const touchScript = redisScript(touchSource);
const summaryScript = redisScript(summarySource);
const factScript = redisScript(factSource);
const pruneScript = redisScript(pruneSource);
const appendUnlockScript = redisScript(appendUnlockSource);

/**
 * Keeps sessions in Redis, for agents served by many processes or machines.
 *
 * Layout (redis-layout.ts, shared with UpstashRedisMemoryStore), for a session id `s` (URI-encoded into `e`, so ids can neither collide nor escape the
 * prefix): `<prefix>{e}:messages` (list of JSON messages), `:ids` (set, for idempotency),
 * `:meta` (hash), `:summaries` + `:summary-ids`, `:facts` (hash key → JSON fact), `:lock`. The
 * `{e}` hash tag keeps one session's keys in one cluster slot, so every write is one atomic Lua
 * script. 16 sorted sets by last write, `<prefix>sessions:{0}` … `{15}` (a session in the one its
 * id hashes to; see RedisSessionIndex), index sessions for `entries()` and `prune()`: the store
 * never runs KEYS or SCAN, and never builds a glob from an id.
 */
export class RedisMemoryStore implements MemoryStore {
  private readonly client: Redis | Cluster;
  private readonly prefix: string;
  private readonly ttl: number;
  private readonly index: RedisSessionIndex;
  private readonly commands: RedisCommands;
  private readonly locks: RedisSessionLocks;
  /** The agent's folded turn (internal, see `TurnFolding`): lock and tail in one script, the last append and the release in one. */
  readonly [turnFolding]: RedisTurnFolding;

  constructor(options: RedisMemoryStoreOptions) {
    if (options == null || typeof options !== "object" || options.client == null) {
      throw new InvalidArgumentError({
        argument: "client",
        message:
          'new RedisMemoryStore() needs { client }: an ioredis client, e.g. new Redis("redis://localhost:6379").',
      });
    }
    rejectUnknownOptions(store, options, knownOptions, {
      keyPrefix: "prefix",
      namespace: "prefix",
      ttlMs: "ttl",
      redis: "client",
    });
    this.client = options.client;
    this.prefix = redisPrefixOption(options.prefix);
    this.ttl = positiveMillisecondsOption(options.ttl, "ttl");
    const lockLeaseMs = positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000;
    this.index = new RedisSessionIndex(sortedSetCommands(this.client), this.prefix);
    this.commands = new RedisCommands(this.client, replicaWaitOption(options.waitForReplicas));
    this.locks = new RedisSessionLocks(this.client, this.commands, this.prefix, lockLeaseMs);
    this[turnFolding] = new RedisTurnFolding(
      {
        takeLock: (sessionId, lockOptions, attempt) => this.locks.acquireWith(sessionId, lockOptions, attempt),
        lockAndReadTail: (sessionId, token, count) => this.locks.lockAndReadTail(sessionId, token, count),
        parseTail: (sessionId, total, raw) => parseTail("getMessageTail", sessionId, total, raw),
        appendReleasing: (sessionId, messages) => this.appendReleasing(sessionId, messages),
      },
      store,
    );
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    const keys = this.keys(sessionId);
    const raw = await this.call("getMessages", sessionId, () => this.client.lrange(keys.messages, 0, -1));
    return raw.map((text, index) =>
      parseStoredJson<AgentMessage>(text, { store, operation: "getMessages", sessionId, record: `message ${index}` }),
    );
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, limit);
  }

  /** The last `limit` messages and the list's length, in one MULTI (LLEN + LRANGE). */
  private async readTail(operation: "getMessageTail", sessionId: string, limit: number): Promise<MessageTail> {
    const keys = this.keys(sessionId);
    const count = tailLimit(limit, store, operation);
    const [total, raw] = await this.call(operation, sessionId, async () => {
      const transaction = this.client.multi().llen(keys.messages);
      // LRANGE wants integers: an Infinity limit (or one past 2^53) is the whole list, 0..-1.
      if (count > 0) transaction.lrange(keys.messages, count === Infinity ? 0 : -count, -1);
      const replies = await execMulti(transaction);
      return [replies[0] as number, (replies[1] ?? []) as string[]] as const;
    });
    return parseTail(operation, sessionId, total, raw);
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
      await this.client.del(keys.messages, keys.ids, keys.meta, keys.summaries, keys.summaryIds);
      await this.index.remove([sessionId]);
    });
  }

  async getFacts(scopeId: string): Promise<Fact[]> {
    const key = this.keys(scopeId, "scopeId").facts;
    const raw = await this.call("getFacts", scopeId, () => this.client.hgetall(key));
    return Object.entries(raw).map(([name, text]) =>
      parseStoredJson<Fact>(text, { store, operation: "getFacts", sessionId: scopeId, record: `fact "${name}"` }),
    );
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    const key = this.keys(scopeId, "scopeId").facts;
    // The scope also enters an index set, so export can list the scopes (the store never SCANs). The
    // set is its own key (another slot on a Cluster), written beside the fact's one-script write.
    await this.call("setFact", scopeId, () =>
      Promise.all([
        this.commands.evalWrite(factScript, [key], [fact.key, JSON.stringify(fact), String(this.ttl)]),
        this.client.sadd(this.factScopesKey, scopeId),
      ]),
    );
  }

  async factScopes(): Promise<string[]> {
    return (await this.call("factScopes", undefined, () => this.client.smembers(this.factScopesKey))).sort();
  }

  async deleteFact(scopeId: string, key: string): Promise<boolean> {
    const factsKey = this.keys(scopeId, "scopeId").facts;
    return (await this.call("deleteFact", scopeId, () => this.client.hdel(factsKey, key))) > 0;
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    const keys = this.keys(sessionId);
    // One MULTI, so the metadata and the count are read at the same instant.
    const [meta, count] = await this.call("getSession", sessionId, async () => {
      const replies = await execMulti(this.client.multi().hgetall(keys.meta).llen(keys.messages));
      return [replies[0] as Record<string, string>, replies[1] as number] as const;
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
        await this.commands.eval(pruneScript, sessionScriptKeys(keys), [String(options.olderThan)]),
      );
      if (result === 1) pruned.push(id);
      if (result !== -1) await this.index.remove([id]);
    }
    return pruned;
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    const keys = this.keys(sessionId);
    const count = summaryCount(options, store);
    if (count === 0) return [];
    const raw = await this.call("getSummaries", sessionId, () =>
      this.client.lrange(keys.summaries, count === Infinity ? 0 : -count, -1),
    );
    return raw.map((text, index) =>
      parseStoredJson<SummaryRecord>(text, { store, operation: "getSummaries", sessionId, record: `summary ${index}` }),
    );
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    await this.writeSession("saveSummary", sessionId, summaryScript, [record.id, JSON.stringify(record)]);
  }

  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    return this.locks.acquire(sessionId, options);
  }

  /**
   * `appendMessages` that also releases the session lock this instance holds, in the same script
   * (with the index written beside it, as `writeSession` does); resolves to whether it released it.
   * Without a lock held, a plain append.
   */
  private async appendReleasing(sessionId: string, messages: AgentMessage[]): Promise<boolean> {
    const token = this.locks.tokenOf(sessionId);
    if (token === undefined) {
      await this.appendMessages(sessionId, messages);
      return false;
    }
    const keys = this.keys(sessionId);
    const now = Date.now();
    const reply = await this.call("appendMessages", sessionId, async () => {
      const [, result] = await Promise.all([
        this.index.add(sessionId, now),
        this.commands.evalWrite(
          appendUnlockScript,
          [...sessionScriptKeys(keys), keys.lock],
          [String(now), String(this.ttl), token, ...messagesArguments(messages)],
        ),
      ]);
      return result as [number, number];
    });
    if (Number(reply[1]) !== 1) return false; // no longer this holder's lock (its lease ran out): nothing to release
    this.locks.unlockedBy(sessionId, token);
    return true;
  }

  private get factScopesKey(): string {
    return redisFactScopesKey(this.prefix);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  private async writeSession(operation: string, sessionId: string, body: RedisScript, extra: string[]): Promise<void> {
    const keys = this.keys(sessionId);
    const now = Date.now();
    await this.call(operation, sessionId, async () => {
      // Index first (sent first on the connection, without waiting for its reply): a crash in
      // between leaves an index entry without data, which entries() drops, never data that no
      // index knows about.
      await Promise.all([
        this.index.add(sessionId, now),
        this.commands.evalWrite(body, sessionScriptKeys(keys), [String(now), String(this.ttl), ...extra]),
      ]);
    });
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
        message: `Redis failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${errorText(error)}`,
        cause: error,
      });
    }
  }
}

/** A tail read (the list's length and its last messages as stored), parsed. */
function parseTail(operation: "getMessageTail", sessionId: string, total: number, raw: string[]): MessageTail {
  const first = total - raw.length;
  return {
    messages: raw.map((text, index) =>
      parseStoredJson<AgentMessage>(text, { store, operation, sessionId, record: `message ${first + index}` }),
    ),
    total,
  };
}
