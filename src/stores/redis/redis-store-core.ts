// The logic of the Redis stores, once, over a small command interface (redis-transport.ts) with two transports:
// RedisMemoryStore (ioredis, Redis or Cluster, TCP) and UpstashRedisMemoryStore (@upstash/redis, HTTP). A fix
// here lands in both. Peer-free: the Upstash store, and so the edge build, imports this file.
import { AbortError } from "../../errors/abort-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import { StoreError } from "../../errors/store-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { builtInBackend } from "../built-in-backend";
import { storeBackend, type StoreBackend } from "../store-backend";
import { RedisFacts } from "./redis-facts";
import { validateSessionId } from "../../messages/session-id";
import type {
  Fact,
  MemoryStore,
  MessageTail,
  SessionEntry,
  ListSessionsOptions,
  SessionPage,
  SessionLockOptions,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { parseStoredMessage } from "../stored-json";
import type { ContextReport, ContextReportReadOptions } from "../context-report";
import { readRedisContextReports, saveRedisContextReport } from "./redis-context-reports";
import { readRedisSummaries, summaryArguments, summaryScript } from "./redis-summaries";
import { tailLimit } from "../tail-limit";
import { withinDeadline } from "./redis-deadline";
import {
  fencedScriptKeys,
  messagesArguments,
  redisSessionEntry,
  redisSessionKeys,
  sessionMetaFields,
  sessionScriptKeys,
  type RedisSessionKeys,
} from "./redis-layout";
import { appendReply, cutReply, fencedReply, hashReply, integerReply, UnexpectedReplyError } from "./redis-replies";
import { appendScript, cutScript, pruneScript, replaceScript, sessionScript, touchScript } from "./redis-scripts";
import { readMessageTail } from "./redis-message-tail";
import { RedisSessionIndex } from "./redis-session-index";
import { RedisSessionLocks } from "./redis-session-locks";
import type { RedisTransport } from "./redis-transport";
import { redisStreamLog } from "./redis-stream-log";
import { RedisTurnFolding } from "./redis-turn-folding";
import { claimReply, claimScript, RedisUserSessions } from "./redis-user-sessions";

/** What a Redis store is made of, its options checked. */
export interface RedisStoreSetup {
  /** The store's class name, for errors. */
  store: string;
  transport: RedisTransport;
  prefix: string;
  /** Ms a session (and a fact scope) lives after its last write; 0 = forever. */
  ttlMs: number;
  lockLeaseMs: number;
  /** Ms one request may go unanswered before its operation fails; 0 = no limit. */
  requestTimeoutMs: number;
}

/**
 * Keeps sessions in Redis. Layout (redis-layout.ts), for a session id `s` (URI-encoded into `e`,
 * so ids can neither collide nor escape the prefix): `<prefix>{e}:messages` (list of JSON
 * messages), `:ids` (set, for idempotency), `:meta` (hash), `:summaries` + `:summary-ids`,
 * `:context-reports` (list), `:facts` (hash key → JSON fact), `:lock`. The `{e}` hash tag keeps one session's keys in one
 * cluster slot, so every write is one atomic Lua script (redis-scripts.ts) and every multi-key
 * read one script too (one snapshot). 16 sorted sets by last write, `<prefix>sessions:{0}` …
 * `{15}` (RedisSessionIndex), index sessions for `entries()` and `prune()`: the store never runs
 * KEYS or SCAN, and never builds a glob from an id. While this instance holds a session's lock, its
 * writes to that session (messages, summaries, metadata, context reports) are fenced by the lock's
 * token, and so are a run's fact writes naming that session (`RedisFacts`: on a Cluster, by a check
 * right before the write). Every reply is checked for its shape.
 */
export abstract class RedisStoreCore implements MemoryStore {
  private readonly storeName: string;
  private readonly transport: RedisTransport;
  private readonly prefix: string;
  private readonly ttl: string;
  private readonly requestTimeoutMs: number;
  private readonly index: RedisSessionIndex;
  /** The owners of sessions and each user's index (`listSessions`). */
  private readonly users: RedisUserSessions;
  private readonly locks: RedisSessionLocks;
  /** The agent's folded turn (internal, see `TurnFolding`): lock and tail in one script, the last append and the release in one. */
  private readonly folding: RedisTurnFolding;
  /** The facts; a run's writes fenced by its session's lock (internal, `FencedFacts`; see `RedisFacts`). */
  private readonly facts: RedisFacts;

  protected constructor(setup: RedisStoreSetup) {
    this.storeName = setup.store;
    this.transport = setup.transport;
    this.prefix = setup.prefix;
    this.ttl = String(setup.ttlMs);
    this.requestTimeoutMs = setup.requestTimeoutMs;
    this.index = new RedisSessionIndex(this.transport, this.prefix);
    this.users = new RedisUserSessions(this.transport, this.prefix);
    const lockCall = <T>(sessionId: string, body: () => Promise<T>, signal?: AbortSignal) =>
      this.call("lockSession", sessionId, body, signal);
    this.locks = new RedisSessionLocks(this.transport, lockCall, this.prefix, setup.lockLeaseMs);
    const where = { store: this.storeName, transport: this.transport, prefix: this.prefix, ttl: this.ttl };
    this.facts = new RedisFacts(where, this.call.bind(this), this.locks);
    this.folding = new RedisTurnFolding(
      {
        takeLock: (sessionId, lockOptions, attempt) => this.locks.acquireWith(sessionId, lockOptions, attempt),
        lockAndReadTail: (sessionId, token, count) => this.locks.lockAndReadTail(sessionId, token, count),
        parseTail: (sessionId, total, raw) => this.parseTail("getMessageTail", sessionId, total, raw),
        appendReleasing: (sessionId, messages) => this.appendFenced(sessionId, messages, true),
      },
      this.storeName,
    );
  }

  async getMessages(sessionId: string): Promise<AgentMessage[]> {
    return (await this.readTail("getMessages", sessionId, Infinity)).messages;
  }

  async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    return this.readTail("getMessageTail", sessionId, tailLimit(limit, this.storeName));
  }

  /** The last `count` messages (Infinity: all) and the list's length, in one snapshot. */
  private async readTail(operation: string, sessionId: string, count: number): Promise<MessageTail> {
    const key = this.keys(sessionId).messages;
    const { total, raw } = await this.call(operation, sessionId, () => readMessageTail(this.transport, key, count));
    return this.parseTail(operation, sessionId, total, raw);
  }

  /** A tail read (the list's length and its last messages as stored), parsed. */
  private parseTail(operation: string, sessionId: string, total: number, raw: string[]): MessageTail {
    const first = total - raw.length;
    const store = this.storeName;
    return {
      messages: raw.map((text, index) =>
        parseStoredMessage(text, { store, operation, sessionId, record: `message ${first + index}` }),
      ),
      total,
    };
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIds(messages);
    const encoded = messagesArguments(messages, this.storeName, "setMessages", sessionId);
    await this.writeFenced("setMessages", sessionId, replaceScript, encoded, "the replace script");
  }

  async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIds(messages);
    if (messages.length === 0) {
      validateSessionId(sessionId);
      return;
    }
    await this.appendFenced(sessionId, messages, false);
  }

  /**
   * The append script, fenced by the lock this instance holds on the session (a holder whose lock
   * was lost is refused: `SessionLockLostError`, nothing written); with `release`, it also
   * releases that lock in the same script. Resolves to whether it released it.
   */
  private async appendFenced(sessionId: string, messages: AgentMessage[], release: boolean): Promise<boolean> {
    validateMessageIds(messages); // the folded append-and-release comes here directly
    const operation = "appendMessages";
    const token = this.locks.tokenOf(sessionId);
    const encoded = messagesArguments(messages, this.storeName, operation, sessionId);
    const args = [token ?? "", release && token !== undefined ? "1" : "0", ...encoded];
    const outcome = await this.writeSession(operation, sessionId, appendScript, args, appendReply, true);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
    if (outcome.released && token !== undefined) this.locks.unlockedBy(sessionId, token);
    return outcome.released;
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    await this.cut(sessionId, messageId, []);
  }

  /** The store's backend (internal, `backendOf`): the folded turn (the lock, the tail and the last append in fewer round trips), the atomic delete-and-append of regenerate and edit (one script), and a run's fenced fact writes. */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: RedisStoreCore.prototype,
      folding: this.folding,
      replaceFrom: async (sessionId, messageId, messages) => this.cut(sessionId, messageId, messages),
      facts: this.facts,
      streamLog: redisStreamLog(this.transport, this.prefix),
      claimSession: async (sessionId, userId) => {
        const now = Date.now();
        const args = [this.locks.tokenOf(sessionId) ?? "", ...this.users.claimArguments(sessionId, userId)];
        const claim = await this.writeSession("claimSession", sessionId, claimScript, args, claimReply, true, now);
        if (claim.outcome === "lost")
          throw new SessionLockLostError({ store: this.storeName, operation: "claimSession", sessionId });
        await this.call("claimSession", sessionId, () => this.users.claimed(sessionId, userId, claim, now));
        return claim.owner;
      },
    });
  }

  listSessions(options: ListSessionsOptions): Promise<SessionPage> {
    return this.call("listSessions", undefined, () => this.users.list(options, (id) => this.getSession(id)));
  }

  /** The cut script, fenced like an append by the lock this instance holds on the session. */
  private async cut(sessionId: string, messageId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    const operation = "deleteMessagesFrom";
    const encoded = messagesArguments(messages, this.storeName, operation, sessionId);
    const args = [this.locks.tokenOf(sessionId) ?? "", messageId, ...encoded];
    const outcome = await this.writeSession(operation, sessionId, cutScript, args, cutReply, true);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
    if (outcome === "missing") throw new MessageNotFoundError({ sessionId, messageId });
  }

  async clearMessages(sessionId: string): Promise<void> {
    const keys = this.keys(sessionId);
    await this.call("clearMessages", sessionId, async () => {
      integerReply(await this.transport.command(["DEL", ...sessionScriptKeys(keys), keys.reports]), "DEL's count");
      await this.index.remove([sessionId]);
    });
  }

  getFacts(scopeId: string): Promise<Fact[]> {
    return this.facts.getFacts(scopeId);
  }

  setFact(scopeId: string, fact: Fact): Promise<void> {
    return this.facts.setFact(scopeId, fact);
  }

  factScopes(): Promise<string[]> {
    return this.facts.factScopes();
  }

  deleteFact(scopeId: string, key: string): Promise<boolean> {
    return this.facts.deleteFact(scopeId, key);
  }

  async getSession(sessionId: string): Promise<SessionEntry | undefined> {
    const keys = this.keys(sessionId);
    // One script, so the metadata and the count are read at the same instant.
    const [meta, count] = await this.call("getSession", sessionId, async () => {
      const reply = await this.transport.script(sessionScript, [keys.meta, keys.messages], []);
      const what = "the session script's {metadata, message count}";
      if (!Array.isArray(reply) || reply.length !== 2) throw new UnexpectedReplyError(what, reply);
      return [hashReply(reply[0], what), integerReply(reply[1], what)] as const;
    });
    return redisSessionEntry(this.storeName, sessionId, meta, count, keys.meta);
  }

  async updateSession(sessionId: string, metadata: { agentName?: string; tags?: string[] }): Promise<void> {
    await this.writeFenced("updateSession", sessionId, touchScript, sessionMetaFields(metadata), "the touch script");
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
          await this.transport.script(
            pruneScript,
            [...sessionScriptKeys(keys), keys.reports],
            [String(options.olderThan)],
          ),
          "the prune script's -1, 0 or 1",
        ),
      );
      if (result === 1) pruned.push(id);
      if (result !== -1) await this.call("prune", id, () => this.index.remove([id]));
    }
    return pruned;
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    const where = { store: this.storeName, keys: this.keys(sessionId) };
    return readRedisSummaries(this.transport, this.call.bind(this), where, sessionId, options);
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    await this.writeFenced("saveSummary", sessionId, summaryScript, summaryArguments(record), "the summary script");
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    const where = { store: this.storeName, keys: this.keys(sessionId), ttl: this.ttl };
    await saveRedisContextReport(this.transport, this.call.bind(this), where, sessionId, report, this.locks);
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    const where = { store: this.storeName, keys: this.keys(sessionId) };
    return readRedisContextReports(this.transport, this.call.bind(this), where, sessionId, options);
  }

  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    return this.locks.acquire(sessionId, options);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  /**
   * A session write script (KEYS: the session's five, with its lock when `fenced`; ARGV: now,
   * ttl, ...extra), with the session index's ZADD sent first in the same round trip: a failure in
   * between leaves an index entry without data, which entries() drops, never data that no index
   * knows about. Resolves to the script's reply, checked by `parse`.
   */
  private async writeSession<T>(
    operation: string,
    sessionId: string,
    script: string,
    extra: string[],
    parse: (reply: unknown) => T,
    fenced = false,
    now = Date.now(),
  ): Promise<T> {
    const keys = this.keys(sessionId);
    const scriptKeys = fenced ? fencedScriptKeys(keys) : sessionScriptKeys(keys);
    return await this.call(operation, sessionId, async () => {
      const reply = parse(
        await this.transport.writeScript(this.index.addCommand(sessionId, now), script, scriptKeys, [
          String(now),
          this.ttl,
          ...extra,
        ]),
      );
      await this.users.written(sessionId, now);
      return reply;
    });
  }

  /**
   * A fenced session write whose script returns 1, or -1 when the lock this instance holds on the
   * session was lost (ARGV: now, ttl, the lock's token or '' when none is held, ...extra): refused
   * with `SessionLockLostError`, nothing written.
   */
  private async writeFenced(operation: string, sessionId: string, script: string, extra: string[], name: string) {
    const args = [this.locks.tokenOf(sessionId) ?? "", ...extra];
    const parse = (reply: unknown) => fencedReply(reply, name);
    const outcome = await this.writeSession(operation, sessionId, script, args, parse, true);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
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
      const session = sessionId === undefined ? "" : ` of session "${sessionId}"`;
      throw new StoreError({
        store: this.storeName,
        operation,
        ...(sessionId === undefined ? {} : { sessionId }),
        message: `${this.transport.serverName} failed during ${operation}${session}: ${this.transport.errorText(error)}`,
        cause: error,
      });
    }
  }
}
