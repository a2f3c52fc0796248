// Sessions owned by users on the Redis stores (issue 41): the owner recorded when a run with a
// userId creates the session, and each user's sessions listed from a sorted set per user.
import type { ListSessionsOptions, SessionEntry, SessionPage } from "../memory-store";
import { isAfter, sessionPage, sessionPageQuery } from "../session-page-query";
import { userUsageKeys } from "./redis-ledger";
import { fence } from "./redis-scripts";
import { stringListReply, UnexpectedReplyError } from "./redis-replies";
import type { RedisTransport } from "./redis-transport";

/**
 * KEYS: the session's five data keys and its lock (`fencedScriptKeys`). ARGV: now, ttl, token ('' =
 * not fenced), userId, the owner's index key ('' on a Cluster: another slot), sessionId. Creates the
 * session owned by userId unless its meta hash exists; returns {1, owner} when it created it, {0,
 * owner or ''} when it existed, {-1, ''} with nothing written when the token no longer holds the lock.
 */
export const claimScript = `${fence("{-1, ''}")}
if redis.call('EXISTS', KEYS[3]) == 1 then
  return {0, redis.call('HGET', KEYS[3], 'userId') or ''}
end
redis.call('HSET', KEYS[3], 'createdAt', ARGV[1], 'accessedAt', ARGV[1], 'userId', ARGV[4], 'sessionId', ARGV[6])
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[3], 'userIndex', ARGV[5])
  redis.call('ZADD', ARGV[5], ARGV[1], ARGV[6])
end
if tonumber(ARGV[2]) > 0 then redis.call('PEXPIRE', KEYS[3], ARGV[2]) end
return {1, ARGV[4]}
`;

/** Parses the claim script's reply. */
export function claimReply(reply: unknown): { outcome: "created" | "existed" | "lost"; owner: string | undefined } {
  const what = "the claim script's {created, owner}";
  if (!Array.isArray(reply) || reply.length !== 2) throw new UnexpectedReplyError(what, reply);
  const [created, owner] = [Number(reply[0]), String(reply[1] ?? "")];
  const outcome = created === 1 ? "created" : created === 0 ? "existed" : created === -1 ? "lost" : undefined;
  if (!outcome) throw new UnexpectedReplyError(what, reply);
  return { outcome, owner: owner === "" ? undefined : owner };
}

/** Most sessions whose owner a Cluster store remembers for its ordered index writes. */
const REMEMBERED_OWNERS = 10_000;

/**
 * The per-user sorted sets (`<prefix>user:{<encoded userId>}:sessions`, member: session id, score:
 * time of the last write), each in its user's own hash slot. On a single Redis or Upstash the session's
 * write scripts update it (`touchSession`); on a Cluster this store writes it after each write script
 * to a session it saw created or checked (an ordered write, not atomic with the script), so a session
 * written only by instances that never opened a run on it with its userId keeps its older position.
 */
export class RedisUserSessions {
  /** Session → its owner, as last seen: for a Cluster's index writes after the scripts, and the ledger's keys. */
  private readonly owners = new Map<string, string>();

  constructor(
    private readonly transport: RedisTransport,
    private readonly prefix: string,
  ) {}

  /** The sorted set of a user's sessions. */
  keyOf(userId: string): string {
    return `${this.baseOf(userId)}:sessions`;
  }

  /**
   * What every key of a user starts with, `<prefix>user:{<encoded userId>}` (their hash tag: one
   * slot): `:sessions` (the index), `:usage` and `:usage-by-day` (their totals, redis-ledger.ts).
   */
  baseOf(userId: string): string {
    return `${this.prefix}user:{${encodeURIComponent(userId)}}`;
  }

  /** Forgets a deleted session's owner (a Cluster's later writes to it move no index entry). */
  forget(sessionId: string): void {
    this.owners.delete(sessionId);
  }

  /** The claim script's ARGV after now, ttl and token. */
  claimArguments(sessionId: string, userId: string): string[] {
    return [userId, this.transport.cluster ? "" : this.keyOf(userId), sessionId];
  }

  /** After the claim script on a user's own session: the owner remembered, and on a Cluster the index write. */
  async claimed(sessionId: string, userId: string, claim: ReturnType<typeof claimReply>, now: number): Promise<void> {
    // Another user's session is refused by the backend (`SessionOwnershipError`); an ownerless one has no index.
    if (claim.owner !== userId) return;
    this.remember(sessionId, userId);
    if (this.transport.cluster && claim.outcome === "created")
      await this.transport.command(["ZADD", this.keyOf(userId), now, sessionId]);
  }

  /** Remembers the owner of a session (most recent `REMEMBERED_OWNERS`), for the index writes and the ledger's keys. */
  remember(sessionId: string, userId: string): void {
    this.owners.delete(sessionId);
    this.owners.set(sessionId, userId);
    if (this.owners.size > REMEMBERED_OWNERS) this.owners.delete(this.owners.keys().next().value!);
  }

  /**
   * The owner this store knows of a session and the keys of their totals, which a session script
   * then updates itself (KEYS 7 and 8, checked against the meta's owner); undefined on a Cluster
   * (another slot) or for an owner not known here: the store then adds to them after the script.
   */
  ledgerTarget(sessionId: string): { owner: string; keys: string[] } | undefined {
    const owner = this.transport.cluster ? undefined : this.owners.get(sessionId);
    if (owner === undefined) return undefined;
    const keys = userUsageKeys(this.baseOf(owner));
    return { owner, keys: [keys.running, keys.byDay] };
  }

  /** On a Cluster, after a write script to a session whose owner this store knows: its index entry moved. */
  async written(sessionId: string, now: number): Promise<void> {
    const owner = this.transport.cluster ? this.owners.get(sessionId) : undefined;
    if (owner !== undefined) await this.transport.command(["ZADD", this.keyOf(owner), "GT", now, sessionId]);
  }

  /**
   * A page of a user's sessions: read from the sorted set newest first from the cursor's position
   * (equal times in descending id order, as the set keeps them), each entry's metadata read; a
   * session that is gone (cleared, pruned, expired) or no longer the user's leaves the index.
   */
  async list(options: ListSessionsOptions, getSession: (id: string) => Promise<SessionEntry | undefined>) {
    const { userId, limit, after } = sessionPageQuery(options);
    const key = this.keyOf(userId);
    const rows: SessionEntry[] = [];
    const batch = limit + 1;
    let offset = 0;
    for (;;) {
      const max = after ? String(after.accessedAt) : "+inf";
      const reply = await this.transport.read("ZREVRANGEBYSCORE", key, [
        max,
        "-inf",
        "WITHSCORES",
        "LIMIT",
        offset,
        batch,
      ]);
      // WITHSCORES: a flat member, score… list (RESP2), or [member, score] pairs (some servers' replies to `call`).
      const flat = stringListReply(Array.isArray(reply) ? reply.flat() : reply, "the user index's members");
      offset += flat.length / 2;
      const candidates: { sessionId: string; accessedAt: number }[] = [];
      for (let index = 0; index < flat.length; index += 2) {
        const candidate = { sessionId: flat[index]!, accessedAt: Number(flat[index + 1]) };
        if (isAfter(candidate, after)) candidates.push(candidate);
      }
      const entries = await Promise.all(candidates.map((candidate) => getSession(candidate.sessionId)));
      const gone: string[] = [];
      entries.forEach((entry, index) => {
        const { sessionId, accessedAt } = candidates[index]!;
        // The page's order and cursor are the index's: `accessedAt` is the indexed time (on a Cluster
        // a write whose index update has not landed yet is listed at its previous time).
        if (entry && entry.userId === userId) rows.push({ ...entry, accessedAt });
        else gone.push(sessionId);
      });
      if (gone.length > 0) await this.transport.command(["ZREM", key, ...gone]);
      if (rows.length >= batch || flat.length < batch * 2) break;
    }
    return sessionPage(rows.slice(0, batch), limit) satisfies SessionPage;
  }
}
