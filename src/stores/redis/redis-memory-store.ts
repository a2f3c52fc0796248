import { errorText } from "../../errors/error-text";
import { createHash, randomUUID } from "node:crypto";
import type { ChainableCommander, Cluster, Redis } from "ioredis";
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
import { pollLock } from "../poll-lock";
import { holdLease } from "../hold-lease";
import { execWaitingForReplicas, replicaWaitOption, type RedisReplicaWait } from "./redis-replica-wait";
import { RedisSessionIndex, type SortedSetCommands } from "./redis-session-index";
import {
  appendScript as appendSource,
  appendUnlockScript as appendUnlockSource,
  factScript as factSource,
  lockTailScript as lockTailSource,
  pruneScript as pruneSource,
  renewScript as renewSource,
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

function script(source: string) {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

const appendScript = script(appendSource);
const replaceScript = script(replaceSource);
const touchScript = script(touchSource);
const summaryScript = script(summarySource);
const factScript = script(factSource);
const pruneScript = script(pruneSource);
const renewScript = script(renewSource);
const lockTailScript = script(lockTailSource);
const appendUnlockScript = script(appendUnlockSource);

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
  private readonly lockLeaseMs: number;
  private readonly index: RedisSessionIndex;
  private readonly waitForReplicas: RedisReplicaWait | undefined;
  /** Token of the session lock this store instance holds (or held until it was taken over), per session. */
  private readonly held = new Map<string, string>();
  /** Tokens of locks released by a run's last append (`appendReleasing`) whose release function has not run yet. */
  private readonly releasedInline = new Set<string>();
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
    this.lockLeaseMs = positiveMillisecondsOption(options.lockLeaseMs, "lockLeaseMs") || 30_000;
    this.index = new RedisSessionIndex(sortedSetCommands(this.client), this.prefix);
    this.waitForReplicas = replicaWaitOption(options.waitForReplicas);
    this[turnFolding] = new RedisTurnFolding(
      {
        takeLock: (sessionId, lockOptions, attempt) => this.takeLock(sessionId, lockOptions, attempt),
        lockAndReadTail: (sessionId, token, count) => this.lockAndReadTail(sessionId, token, count),
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
    await this.writeSession("setMessages", sessionId, replaceScript, messagesArguments(messages));
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
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
        this.evalWrite(factScript, [key], [fact.key, JSON.stringify(fact), String(this.ttl)]),
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
      const result = Number(await this.eval(pruneScript, sessionScriptKeys(keys), [String(options.olderThan)]));
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
    const key = this.keys(sessionId).lock;
    const taken = await this.takeLock(sessionId, options, async (token) =>
      (await this.client.set(key, token, "PX", this.lockLeaseMs, "NX")) === "OK" ? true : undefined,
    );
    return taken.release;
  }

  /**
   * Takes the session lock with `attempt(token)`, one command or script that sets the lock key
   * (`SET NX PX`) and resolves to what it read, or undefined when the lock is held elsewhere;
   * retried until it takes it or `timeoutMs` passes. The lease is then renewed until the release,
   * which deletes the key only while it holds this token (and does nothing once the run's last
   * append released it, see `appendReleasing`).
   */
  private async takeLock<T>(
    sessionId: string,
    options: SessionLockOptions,
    attempt: (token: string) => Promise<T | undefined>,
  ): Promise<{ release: () => Promise<void>; value: T }> {
    const key = this.keys(sessionId).lock;
    const token = randomUUID();
    const value = await pollLock(sessionId, options.timeoutMs, () => attempt(token), options.signal);
    this.held.set(sessionId, token);
    const renew = (leaseMs: number) => this.eval(renewScript, [key], [token, String(leaseMs)]);
    const release = holdLease({
      leaseMs: this.lockLeaseMs,
      renew: async () => !this.releasedInline.has(token) && Number(await renew(this.lockLeaseMs)) === 1,
      release: async () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        if (this.releasedInline.delete(token)) return; // released by the run's last append
        await renew(0);
      },
    });
    return { release, value };
  }

  /** The folded lock: the lock-and-tail script with this token (`count` checked by `tailLimit`). */
  private async lockAndReadTail(
    sessionId: string,
    token: string,
    count: number,
  ): Promise<{ total: number; raw: string[] } | undefined> {
    const keys = this.keys(sessionId);
    // LRANGE's start: "" reads no message, "0" the whole list (an Infinity limit), else the last `count`.
    const start = count === 0 ? "" : count === Infinity ? "0" : String(-count);
    const reply = (await this.eval(
      lockTailScript,
      [keys.lock, keys.messages],
      [token, String(this.lockLeaseMs), start],
    )) as [number, string[]] | null;
    return reply === null ? undefined : { total: Number(reply[0]), raw: reply[1] };
  }

  /**
   * `appendMessages` that also releases the session lock this instance holds, in the same script
   * (with the index written beside it, as `writeSession` does); resolves to whether it released it.
   * Without a lock held, a plain append.
   */
  private async appendReleasing(sessionId: string, messages: AgentMessage[]): Promise<boolean> {
    const token = this.held.get(sessionId);
    if (token === undefined) {
      await this.appendMessages(sessionId, messages);
      return false;
    }
    const keys = this.keys(sessionId);
    const now = Date.now();
    const reply = await this.call("appendMessages", sessionId, async () => {
      const [, result] = await Promise.all([
        this.index.add(sessionId, now),
        this.evalWrite(
          appendUnlockScript,
          [...sessionScriptKeys(keys), keys.lock],
          [String(now), String(this.ttl), token, ...messagesArguments(messages)],
        ),
      ]);
      return result as [number, number];
    });
    if (Number(reply[1]) !== 1) return false; // no longer this holder's lock (its lease ran out): nothing to release
    if (this.held.get(sessionId) === token) this.held.delete(sessionId);
    this.releasedInline.add(token);
    return true;
  }

  private get factScopesKey(): string {
    return redisFactScopesKey(this.prefix);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  private async writeSession(
    operation: string,
    sessionId: string,
    body: { source: string; sha: string },
    extra: string[],
  ): Promise<void> {
    const keys = this.keys(sessionId);
    const now = Date.now();
    await this.call(operation, sessionId, async () => {
      // Index first (sent first on the connection, without waiting for its reply): a crash in
      // between leaves an index entry without data, which entries() drops, never data that no
      // index knows about.
      await Promise.all([
        this.index.add(sessionId, now),
        this.evalWrite(body, sessionScriptKeys(keys), [String(now), String(this.ttl), ...extra]),
      ]);
    });
  }

  private async eval(body: { source: string; sha: string }, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await this.client.evalsha(body.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return await this.client.eval(body.source, keys.length, ...keys, ...args);
    }
  }

  /** `eval`, then with `waitForReplicas`, a `WAIT` on the same connection (one round trip). */
  private async evalWrite(body: { source: string; sha: string }, keys: string[], args: string[]): Promise<unknown> {
    const wait = this.waitForReplicas;
    if (!wait) return await this.eval(body, keys, args);
    try {
      return (
        await execWaitingForReplicas(this.client.pipeline().evalsha(body.sha, keys.length, ...keys, ...args), wait)
      )[0];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return (
        await execWaitingForReplicas(this.client.pipeline().eval(body.source, keys.length, ...keys, ...args), wait)
      )[0];
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

/** The session index's sorted-set commands on an ioredis client. */
export function sortedSetCommands(client: Redis | Cluster): SortedSetCommands {
  return {
    add: (key, score, member, options) =>
      options?.onlyNew ? client.zadd(key, "NX", score, member) : client.zadd(key, score, member),
    remove: (key, members) => client.zrem(key, ...members),
    range: (key, start, stop, withScores) =>
      withScores
        ? client.zrange(key, String(start), String(stop), "WITHSCORES")
        : client.zrange(key, String(start), String(stop)),
    rangeBelow: (key, max) => client.zrangebyscore(key, "-inf", `(${max}`),
  };
}

/** Runs a MULTI and returns its replies, throwing the first command's error (or an aborted transaction). */
async function execMulti(transaction: ChainableCommander): Promise<unknown[]> {
  const replies = await transaction.exec();
  if (replies === null) throw new Error("the MULTI transaction was aborted");
  return replies.map(([error, reply]) => {
    if (error) throw error;
    return reply;
  });
}
