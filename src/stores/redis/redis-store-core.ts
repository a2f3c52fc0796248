// The logic of the Redis stores, once, over a small command interface (redis-transport.ts) with two transports:
// RedisMemoryStore (ioredis, Redis or Cluster, TCP) and UpstashRedisMemoryStore (@upstash/redis, HTTP). A fix
// here lands in both. Peer-free: the Upstash store, and so the edge build, imports this file.
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateMessageIdArgument, validateMessageIds } from "../../messages/message-ids";
import { MessageNotFoundError } from "../../errors/message-not-found-error";
import { builtInBackend } from "../built-in-backend";
import { storeBackend, type StoreBackend } from "../store-backend";
import type { StopSignals } from "../stop-signals";
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
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "../memory-store";
import { checkSessionUpdate } from "../session-metadata";
import { previewOf } from "../session-preview";
import type { AppendOptions, UsageQuery, UsageTotals, UserDataDeletion } from "../usage-totals";
import { ledgerArguments } from "./redis-ledger";
import { RedisThreads } from "./redis-threads";
import type { ContextReport, ContextReportReadOptions } from "../context-report";
import { readRedisContextReports, saveRedisContextReport } from "./redis-context-reports";
import { readRedisSummaries, summaryArguments, summaryScript } from "./redis-summaries";
import { tailLimit } from "../tail-limit";
import { type RedisCall, redisCall } from "./redis-deadline";
import {
  fencedScriptKeys,
  messagesArguments,
  redisSessionKeys,
  sessionMetaFields,
  sessionScriptKeys,
  type RedisSessionKeys,
} from "./redis-layout";
import { appendReply, cutReply, fencedReply, integerReply } from "./redis-replies";
import { pruneRedisSessions } from "./redis-prune";
import { appendScript, cutScript, replaceScript, touchScript } from "./redis-scripts";
import { parseRedisMessages, readMessageTail } from "./redis-message-tail";
import { allRedisSessions, readRedisSession } from "./redis-session-entries";
import { RedisSessionIndex } from "./redis-session-index";
import { RedisSessionLocks } from "./redis-session-locks";
import type { RedisTransport } from "./redis-transport";
import { redisStreamLog } from "./redis-stream-log";
import { RedisTurnFolding } from "./redis-turn-folding";
import { claimReply, claimScript, RedisUserSessions } from "./redis-user-sessions";

/** What a Redis store's stops may use (upstash-stop-signals.ts: the keys, and the lock this store object holds). */
export interface RedisStopSession {
  transport: RedisTransport;
  keysOf: (sessionId: string) => RedisSessionKeys;
  tokenOf: (sessionId: string) => string | undefined;
}

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
  /** How a stop reaches a run holding a session: pub/sub (ioredis), a polled key (Upstash). */
  stopSignals: (session: RedisStopSession) => StopSignals;
}

/**
 * Keeps sessions in Redis. Layout (redis-layout.ts), for a session id `s` (URI-encoded into `e`,
 * so ids can neither collide nor escape the prefix): `<prefix>{e}:messages` (list of JSON
 * messages), `:ids` (set, for idempotency), `:meta` (hash: times, owner, title, metadata, preview,
 * usage totals), `:summaries` + `:summary-ids`,
 * `:context-reports` (list), `:facts` (hash key → JSON fact), `:lock`. The `{e}` hash tag keeps one session's keys in one
 * cluster slot, so every write is one atomic Lua script (redis-scripts.ts) and every multi-key
 * read one script too (one snapshot). 16 sorted sets by last write, `<prefix>sessions:{0}` …
 * `{15}` (RedisSessionIndex), index sessions for `entries()` and `prune()`: the store never runs
 * KEYS or SCAN, and never builds a glob from an id. A user's keys (`<prefix>user:{u}:sessions`,
 * `:usage`, `:usage-by-day`) share the user's hash tag (redis-user-sessions.ts, redis-ledger.ts). While this instance holds a session's lock, its
 * writes to that session (messages, summaries, metadata, context reports) are fenced by the lock's
 * token, and so are a run's fact writes naming that session (`RedisFacts`: on a Cluster, by a check
 * right before the write). Every reply is checked for its shape.
 */
export abstract class RedisStoreCore implements MemoryStore {
  private readonly storeName: string;
  private readonly transport: RedisTransport;
  private readonly prefix: string;
  private readonly ttl: string;
  /** Runs one operation's requests: its deadline, its errors (`redisCall`). */
  private readonly call: RedisCall;
  private readonly index: RedisSessionIndex;
  /** The owners of sessions and each user's index (`listSessions`). */
  private readonly users: RedisUserSessions;
  private readonly locks: RedisSessionLocks;
  /** The agent's folded turn (internal, see `TurnFolding`): lock and tail in one script, the last append and the release in one. */
  private readonly folding: RedisTurnFolding;
  /** The facts; a run's writes fenced by its session's lock (internal, `FencedFacts`; see `RedisFacts`). */
  private readonly facts: RedisFacts;
  /** Message ranges, the usage ledger's reads, generated titles, a cut's preview (redis-threads.ts). */
  private readonly threads: RedisThreads;
  private readonly stopSignals: StopSignals;

  protected constructor(setup: RedisStoreSetup) {
    this.storeName = setup.store;
    this.transport = setup.transport;
    this.prefix = setup.prefix;
    this.ttl = String(setup.ttlMs);
    this.call = redisCall(this.storeName, this.transport, setup.requestTimeoutMs);
    this.index = new RedisSessionIndex(this.transport, this.prefix);
    this.users = new RedisUserSessions(this.transport, this.prefix);
    this.stopSignals = setup.stopSignals({
      transport: this.transport,
      keysOf: (sessionId) => redisSessionKeys(this.prefix, sessionId),
      tokenOf: (sessionId) => this.locks.tokenOf(sessionId),
    });
    const lockCall = <T>(sessionId: string, body: () => Promise<T>, signal?: AbortSignal) =>
      this.call("lockSession", sessionId, body, signal);
    this.locks = new RedisSessionLocks(this.transport, lockCall, this.prefix, setup.lockLeaseMs);
    const where = { store: this.storeName, transport: this.transport, prefix: this.prefix, ttl: this.ttl };
    this.facts = new RedisFacts(where, this.call, this.locks);
    this.folding = new RedisTurnFolding(
      {
        takeLock: (sessionId, lockOptions, attempt) => this.locks.acquireWith(sessionId, lockOptions, attempt),
        lockAndReadTail: (sessionId, token, count) => this.locks.lockAndReadTail(sessionId, token, count),
        parseTail: (sessionId, total, raw) => this.parseTail("getMessageTail", sessionId, total, raw),
        appendReleasing: (sessionId, messages, options) => this.appendFenced(sessionId, messages, true, options),
      },
      this.storeName,
    );
    this.threads = new RedisThreads({
      store: this.storeName,
      transport: this.transport,
      ttl: this.ttl,
      call: this.call,
      keys: (sessionId) => this.keys(sessionId),
      tokenOf: (sessionId) => this.locks.tokenOf(sessionId) ?? "",
      prefix: this.prefix,
      users: this.users,
      index: this.index,
    });
  }

  getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    return this.threads.getMessageRange(sessionId, start, end);
  }

  getUsage(query: UsageQuery): Promise<UsageTotals> {
    return this.threads.getUsage(query);
  }

  deleteUserData(userId: string): Promise<UserDataDeletion> {
    return this.threads.deleteUserData(userId);
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
    return {
      messages: parseRedisMessages(raw, total - raw.length, { store: this.storeName, operation, sessionId }),
      total,
    };
  }

  async setMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
    validateMessageIds(messages);
    const encoded = messagesArguments(messages, this.storeName, "setMessages", sessionId);
    const args = [previewOf(messages) ?? "", ...encoded];
    await this.writeFenced("setMessages", sessionId, replaceScript, args, "the replace script");
  }

  async appendMessages(sessionId: string, messages: AgentMessage[], options?: AppendOptions): Promise<void> {
    validateMessageIds(messages);
    if (messages.length === 0) {
      validateSessionId(sessionId);
      return;
    }
    await this.appendFenced(sessionId, messages, false, options);
  }

  /**
   * The append script, fenced by the lock this instance holds on the session (a holder whose lock
   * was lost is refused: `SessionLockLostError`, nothing written); with `release`, it also
   * releases that lock in the same script. The preview of the messages and `options.usage` ride in
   * the same script, recorded only when it stored a new message (redis-ledger.ts). Resolves to
   * whether it released the lock.
   */
  private async appendFenced(
    sessionId: string,
    messages: AgentMessage[],
    release: boolean,
    options?: AppendOptions,
  ): Promise<boolean> {
    validateMessageIds(messages); // the folded append-and-release comes here directly
    const operation = "appendMessages";
    const now = Date.now();
    const user = options?.usage && this.users.ledgerTarget(sessionId);
    const where = `${this.storeName}.appendMessages`;
    const ledger = ledgerArguments(options?.usage, previewOf(messages), now, where, user?.owner);
    const token = this.locks.tokenOf(sessionId);
    const encoded = messagesArguments(messages, this.storeName, operation, sessionId);
    const args = [token ?? "", release && token !== undefined ? "1" : "0", ...ledger, ...encoded];
    const outcome = await this.writeSession(operation, sessionId, appendScript, args, appendReply, now, user?.keys);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
    if (outcome.released && token !== undefined) this.locks.unlockedBy(sessionId, token);
    await this.threads.spent(operation, sessionId, outcome.spentBy, ledger);
    return outcome.released;
  }

  async deleteMessagesFrom(sessionId: string, messageId: string): Promise<void> {
    await this.cut(sessionId, messageId, []);
  }

  /** The store's backend (internal, `backendOf`): the folded turn (the lock, the tail and the last append in fewer round trips), the atomic delete-and-append of regenerate and edit (one script), and a run's fenced fact writes. */
  [storeBackend](): StoreBackend {
    return builtInBackend(this, {
      prototype: RedisStoreCore.prototype,
      stopSignals: this.stopSignals,
      folding: this.folding,
      replaceFrom: async (sessionId, messageId, messages, options) =>
        this.cut(sessionId, messageId, messages, options?.usage),
      titleSession: (sessionId, title, usage) => this.threads.titleSession(sessionId, title, usage),
      facts: this.facts,
      streamLog: redisStreamLog(this.transport, this.prefix),
      claimSession: async (sessionId, userId) => {
        const now = Date.now();
        const args = [this.locks.tokenOf(sessionId) ?? "", ...this.users.claimArguments(sessionId, userId)];
        const claim = await this.writeSession("claimSession", sessionId, claimScript, args, claimReply, now);
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

  /**
   * The cut script, fenced like an append by the lock this instance holds on the session, `usage`
   * added in it; the preview is the new messages' when they have text, else computed from what is
   * left after the script (`RedisThreads.previewAfterCut`).
   */
  private async cut(sessionId: string, messageId: string, messages: AgentMessage[], usage?: UsageTotals) {
    validateMessageIdArgument(messageId);
    validateMessageIds(messages);
    const operation = "deleteMessagesFrom";
    const now = Date.now();
    const preview = previewOf(messages);
    const user = usage && this.users.ledgerTarget(sessionId);
    const ledger = ledgerArguments(usage, preview, now, `${this.storeName}.replaceFrom`, user?.owner);
    const encoded = messagesArguments(messages, this.storeName, operation, sessionId);
    const args = [this.locks.tokenOf(sessionId) ?? "", messageId, ...ledger, ...encoded];
    const outcome = await this.writeSession(operation, sessionId, cutScript, args, cutReply, now, user?.keys);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
    if (outcome === "missing") throw new MessageNotFoundError({ sessionId, messageId });
    await this.threads.spent(operation, sessionId, outcome.spentBy, ledger);
    if (preview === undefined) await this.threads.previewAfterCut(sessionId, outcome);
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

  getSession(sessionId: string): Promise<SessionEntry | undefined> {
    const where = { store: this.storeName, transport: this.transport, call: this.call };
    return readRedisSession(where, sessionId, this.keys(sessionId));
  }

  async updateSession(sessionId: string, update: SessionUpdate): Promise<void> {
    const fields = sessionMetaFields(checkSessionUpdate(update));
    await this.writeFenced("updateSession", sessionId, touchScript, fields, "the touch script");
  }

  entries(): Promise<SessionEntry[]> {
    return allRedisSessions(this.index, this.call, (id) => this.getSession(id));
  }

  prune(options: { olderThan: number }): Promise<string[]> {
    const where = { transport: this.transport, index: this.index, keys: (id: string) => this.keys(id) };
    return pruneRedisSessions(where, this.call, options.olderThan);
  }

  async getSummaries(sessionId: string, options?: SummaryReadOptions): Promise<SummaryRecord[]> {
    const where = { store: this.storeName, keys: this.keys(sessionId) };
    return readRedisSummaries(this.transport, this.call, where, sessionId, options);
  }

  async saveSummary(sessionId: string, record: SummaryRecord): Promise<void> {
    await this.writeFenced("saveSummary", sessionId, summaryScript, summaryArguments(record), "the summary script");
  }

  async saveContextReport(sessionId: string, report: ContextReport): Promise<void> {
    const where = { store: this.storeName, keys: this.keys(sessionId), ttl: this.ttl };
    await saveRedisContextReport(this.transport, this.call, where, sessionId, report, this.locks);
  }

  async getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]> {
    const where = { store: this.storeName, keys: this.keys(sessionId) };
    return readRedisContextReports(this.transport, this.call, where, sessionId, options);
  }

  async lockSession(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    return this.locks.acquire(sessionId, options);
  }

  private keys(sessionId: string, argument = "sessionId"): RedisSessionKeys {
    return redisSessionKeys(this.prefix, sessionId, argument);
  }

  /**
   * A session write script (KEYS: the session's five and its lock, then `userKeys`, the owner's totals
   * when the ledger reaches them: redis-ledger.ts; ARGV: now, ttl, ...extra), with the session index's ZADD sent first in the same round trip: a failure in
   * between leaves an index entry without data, which entries() drops, never data that no index
   * knows about. Resolves to the script's reply, checked by `parse`.
   */
  private async writeSession<T>(
    operation: string,
    sessionId: string,
    script: string,
    extra: string[],
    parse: (reply: unknown) => T,
    now = Date.now(),
    userKeys: string[] = [],
  ): Promise<T> {
    const scriptKeys = [...fencedScriptKeys(this.keys(sessionId)), ...userKeys];
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
    const outcome = await this.writeSession(operation, sessionId, script, args, parse);
    if (outcome === "lost") throw new SessionLockLostError({ store: this.storeName, operation, sessionId });
  }
}
