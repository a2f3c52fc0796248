import { errorText } from "../../errors/error-text";
import { createHash, randomUUID } from "node:crypto";
import type { ChainableCommander, Cluster, Redis } from "ioredis";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import type { Fact, MemoryStore, MessageTail, SessionEntry, SessionLockOptions, SummaryRecord } from "../memory-store";
import { pollLock } from "../poll-lock";
import { holdLease } from "../hold-lease";
import { execWaitingForReplicas, replicaWaitOption, type RedisReplicaWait } from "./redis-replica-wait";
import { RedisSessionIndex } from "./redis-session-index";
import { parseSessionTags } from "../parse-session-tags";
import { rejectUnknownOptions } from "../reject-unknown-options";
import { validateScopeId, validateSessionId } from "../../messages/session-id";
import { parseStoredJson } from "../stored-json";
import { tailLimit } from "../tail-limit";

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
const knownOptions = ["client", "prefix", "ttl", "lockLeaseMs", "waitForReplicas"] as const satisfies readonly (keyof RedisMemoryStoreOptions)[];

function script(source: string) {
  return { source, sha: createHash("sha1").update(source).digest("hex") };
}

// KEYS: messages, ids, meta, summaries, summary ids. ARGV: now, ttl (0 = none), then pairs of
// ("" | "#" + id, json). Appends the messages whose id is not yet stored, atomically.
const appendScript = script(`
local added = 0
for k = 3, #ARGV, 2 do
  local id = ARGV[k]
  if id == '' or redis.call('SADD', KEYS[2], id) == 1 then
    redis.call('RPUSH', KEYS[1], ARGV[k + 1])
    added = added + 1
  end
end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return added
`);

// Same keys and arguments; replaces the history with exactly the given messages.
const replaceScript = script(`
redis.call('DEL', KEYS[1], KEYS[2])
for k = 3, #ARGV, 2 do
  if ARGV[k] ~= '' then redis.call('SADD', KEYS[2], ARGV[k]) end
  redis.call('RPUSH', KEYS[1], ARGV[k + 1])
end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`);

// Same keys. ARGV: now, ttl, then field/value pairs for the meta hash.
const touchScript = script(`
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
for k = 3, #ARGV, 2 do redis.call('HSET', KEYS[3], ARGV[k], ARGV[k + 1]) end
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`);

// Same keys. ARGV: now, ttl, summary id, json.
const summaryScript = script(`
if redis.call('SADD', KEYS[5], ARGV[3]) == 1 then redis.call('RPUSH', KEYS[4], ARGV[4]) end
redis.call('HSETNX', KEYS[3], 'createdAt', ARGV[1])
redis.call('HSET', KEYS[3], 'accessedAt', ARGV[1])
if tonumber(ARGV[2]) > 0 then
  for i = 1, #KEYS do redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 1
`);

// KEYS: facts. ARGV: fact key, json, ttl (0 = none).
const factScript = script(`
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if tonumber(ARGV[3]) > 0 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`);

// Same keys. ARGV: olderThan. Deletes the session when it was not written since.
const pruneScript = script(`
local accessed = tonumber(redis.call('HGET', KEYS[3], 'accessedAt'))
if accessed == nil then return 0 end
if accessed >= tonumber(ARGV[1]) then return -1 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
return 1
`);

// KEYS: lock. ARGV: token, lease. Renews (or releases, lease 0) a lock only when it is still ours.
const renewScript = script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if tonumber(ARGV[2]) == 0 then return redis.call('DEL', KEYS[1]) end
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
`);

/**
 * Keeps sessions in Redis, for agents served by many processes or machines.
 *
 * Layout, for a session id `s` (URI-encoded into `e`, so ids can neither collide nor escape the
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

  constructor(options: RedisMemoryStoreOptions) {
    if (options == null || typeof options !== "object" || options.client == null) {
      throw new InvalidArgumentError({
        argument: "client",
        message: 'new RedisMemoryStore() needs { client }: an ioredis client, e.g. new Redis("redis://localhost:6379").',
      });
    }
    rejectUnknownOptions(store, options, knownOptions, { keyPrefix: "prefix", namespace: "prefix", ttlMs: "ttl", redis: "client" });
    this.client = options.client;
    this.prefix = options.prefix ?? "agentcore:";
    if (typeof this.prefix !== "string" || /[{}]/.test(this.prefix) || this.prefix.length > 128) {
      throw new InvalidArgumentError({ argument: "prefix", value: options.prefix, message: "prefix must be a string of at most 128 characters without { or }." });
    }
    this.ttl = positiveOrZero(options.ttl, "ttl");
    this.lockLeaseMs = positiveOrZero(options.lockLeaseMs, "lockLeaseMs") || 30_000;
    this.index = new RedisSessionIndex(this.client, this.prefix);
    this.waitForReplicas = replicaWaitOption(options.waitForReplicas);
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    const keys = this.keys(sessionId);
    const raw = await this.call("getMessages", sessionId, () => this.client.lrange(keys.messages, 0, -1));
    return raw.map((text, index) => parseStoredJson<AgentMessage>(text, { store, operation: "getMessages", sessionId, record: `message ${index}` }));
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
    const first = total - raw.length;
    return {
      messages: raw.map((text, index) =>
        parseStoredJson<AgentMessage>(text, { store, operation, sessionId, record: `message ${first + index}` }),
      ),
      total,
    };
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
    return Object.entries(raw).map(([name, text]) => parseStoredJson<Fact>(text, { store, operation: "getFacts", sessionId: scopeId, record: `fact "${name}"` }));
  }

  async setFact(scopeId: string, fact: Fact): Promise<void> {
    const key = this.keys(scopeId, "scopeId").facts;
    // The scope also enters an index set, so export can list the scopes (the store never SCANs). The
    // set is its own key (another slot on a Cluster), written beside the fact's one-script write.
    await this.call("setFact", scopeId, () =>
      Promise.all([this.evalWrite(factScript, [key], [fact.key, JSON.stringify(fact), String(this.ttl)]), this.client.sadd(this.factScopesKey, scopeId)]),
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
    return entryOf(sessionId, meta, count, keys.meta);
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    const fields: string[] = [];
    if (metadata.agentName !== undefined) fields.push("agentName", metadata.agentName);
    if (metadata.tags !== undefined) fields.push("tags", JSON.stringify(metadata.tags));
    await this.writeSession("updateSession", sessionId, touchScript, fields);
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
      const result = Number(await this.eval(pruneScript, sessionKeys(keys), [String(options.olderThan)]));
      if (result === 1) pruned.push(id);
      if (result !== -1) await this.index.remove([id]);
    }
    return pruned;
  }

  async getSummaries(sessionId: string): Promise<SummaryRecord[]> {
    const keys = this.keys(sessionId);
    const raw = await this.call("getSummaries", sessionId, () => this.client.lrange(keys.summaries, 0, -1));
    return raw.map((text, index) => parseStoredJson<SummaryRecord>(text, { store, operation: "getSummaries", sessionId, record: `summary ${index}` }));
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    await this.writeSession("saveSummary", sessionId, summaryScript, [record.id, JSON.stringify(record)]);
  }

  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const key = this.keys(sessionId).lock;
    const token = randomUUID();
    await pollLock(sessionId, options.timeoutMs, async () =>
      (await this.client.set(key, token, "PX", this.lockLeaseMs, "NX")) === "OK" ? true : undefined,
      options.signal,
    );
    const renew = (leaseMs: number) => this.eval(renewScript, [key], [token, String(leaseMs)]);
    return holdLease({ leaseMs: this.lockLeaseMs, renew: async () => Number(await renew(this.lockLeaseMs)) === 1, release: async () => void (await renew(0)) });
  }

  private get factScopesKey(): string {
    return `${this.prefix}fact-scopes`;
  }

  private keys(sessionId: string, argument = "sessionId") {
    if (argument === "scopeId") validateScopeId(sessionId);
    else validateSessionId(sessionId, argument);
    // encodeURIComponent is injective and escapes { } : / and spaces: an id can neither end the
    // hash tag early nor look like another id's key.
    const base = `${this.prefix}{${encodeURIComponent(sessionId)}}`;
    return {
      messages: `${base}:messages`,
      ids: `${base}:ids`,
      meta: `${base}:meta`,
      summaries: `${base}:summaries`,
      summaryIds: `${base}:summary-ids`,
      facts: `${base}:facts`,
      lock: `${base}:lock`,
    };
  }

  private async writeSession(operation: string, sessionId: string, body: { source: string; sha: string }, extra: string[]): Promise<void> {
    const keys = this.keys(sessionId);
    const now = Date.now();
    await this.call(operation, sessionId, async () => {
      // Index first (sent first on the connection, without waiting for its reply): a crash in
      // between leaves an index entry without data, which entries() drops, never data that no
      // index knows about.
      await Promise.all([this.index.add(sessionId, now), this.evalWrite(body, sessionKeys(keys), [String(now), String(this.ttl), ...extra])]);
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
      return (await execWaitingForReplicas(this.client.pipeline().evalsha(body.sha, keys.length, ...keys, ...args), wait))[0];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return (await execWaitingForReplicas(this.client.pipeline().eval(body.source, keys.length, ...keys, ...args), wait))[0];
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

function sessionKeys(keys: ReturnType<RedisMemoryStore["keys"]>): string[] {
  return [keys.messages, keys.ids, keys.meta, keys.summaries, keys.summaryIds];
}

function messagesArguments(messages: AgentMessage[]): string[] {
  return messages.flatMap((message) => [message.id === undefined ? "" : `#${message.id}`, JSON.stringify(message)]);
}

function entryOf(sessionId: string, meta: Record<string, string>, count: number, metaKey: string): SessionEntry | undefined {
  if (meta.createdAt === undefined) return undefined;
  return {
    sessionId,
    createdAt: Number(meta.createdAt),
    accessedAt: Number(meta.accessedAt ?? meta.createdAt),
    messageCount: count,
    ...(meta.agentName === undefined ? {} : { agentName: meta.agentName }),
    ...(meta.tags === undefined ? {} : { tags: parseSessionTags(meta.tags, { store, operation: "getSession", sessionId, path: metaKey }) }),
  };
}

function positiveOrZero(value: number | undefined, argument: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({ argument, value, message: `${argument} must be a positive number of milliseconds, got ${String(value)}.` });
  }
  return Math.ceil(value);
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
