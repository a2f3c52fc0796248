import { stringListReply } from "./redis-replies";
import type { RedisCommand, RedisTransport } from "./redis-transport";

/**
 * How many sorted sets index the sessions. Fixed for good: a session's index key is a function of
 * its id and this number, so changing it would hide sessions from `entries()` and `prune()`.
 */
export const INDEX_SHARDS = 16;

/**
 * The index of a RedisMemoryStore's (or UpstashRedisMemoryStore's) sessions (member: session id, score: time of the last
 * write), for `entries()` and `prune()` without KEYS or SCAN.
 *
 * It is {@link INDEX_SHARDS} sorted sets, `<prefix>sessions:{0}` … `<prefix>sessions:{15}`, a
 * session in the one its id hashes to (FNV-1a). The hash tags `{0}`…`{15}` put them in 16 slots
 * spread over the whole slot range (on a 3-master Redis Cluster: 6, 6 and 4 per master), so the
 * write every turn makes to the index is spread over the masters instead of all landing on one key.
 *
 * Before the shards there was one sorted set, `<prefix>sessions`. It is still read: every listing
 * or pruning first moves its entries into their shards (`ZADD NX`: a shard entry is from a later
 * write) and removes them, so it empties by itself after the upgrade.
 */
export class RedisSessionIndex {
  private readonly legacyKey: string;
  private readonly shardKeys: string[];

  constructor(
    private readonly transport: RedisTransport,
    prefix: string,
  ) {
    this.legacyKey = `${prefix}sessions`;
    this.shardKeys = Array.from({ length: INDEX_SHARDS }, (_, shard) => `${prefix}sessions:{${shard}}`);
  }

  /** The sorted set that indexes `sessionId`. */
  keyOf(sessionId: string): string {
    return this.shardKeys[shardOf(sessionId)]!;
  }

  /** Records a write to the session at `now`. */
  async add(sessionId: string, now: number): Promise<void> {
    await this.transport.command(this.addCommand(sessionId, now));
  }

  /** The `ZADD` that records a write to the session at `now` (sent beside a session's write script). */
  addCommand(sessionId: string, now: number | string, options?: { onlyNew?: boolean }): RedisCommand {
    const key = this.keyOf(sessionId);
    return options?.onlyNew ? ["ZADD", key, "NX", now, sessionId] : ["ZADD", key, now, sessionId];
  }

  /** Forgets sessions (from their shards, and from the legacy set). */
  async remove(sessionIds: string[]): Promise<void> {
    if (sessionIds.length === 0) return;
    const byKey = new Map<string, string[]>();
    for (const id of sessionIds) byKey.set(this.keyOf(id), [...(byKey.get(this.keyOf(id)) ?? []), id]);
    await Promise.all([
      ...[...byKey].map(([key, ids]) => this.transport.command(["ZREM", key, ...ids])),
      this.transport.command(["ZREM", this.legacyKey, ...sessionIds]),
    ]);
  }

  /** Every indexed session id. */
  async all(): Promise<string[]> {
    await this.migrateLegacy();
    return (await Promise.all(this.shardKeys.map((key) => this.range("ZRANGE", key, [0, -1])))).flat();
  }

  /** The ids of the sessions whose last indexed write is before `time`. */
  async writtenBefore(time: number): Promise<string[]> {
    await this.migrateLegacy();
    return (
      await Promise.all(this.shardKeys.map((key) => this.range("ZRANGEBYSCORE", key, ["-inf", `(${time}`])))
    ).flat();
  }

  /** A range read of one index set: its members (with their scores for WITHSCORES). */
  private async range(command: string, key: string, args: (string | number)[]): Promise<string[]> {
    const reply = await this.transport.read(command, key, args);
    // WITHSCORES: a flat member, score… list (RESP2), or [member, score] pairs (some servers' replies to `call`).
    return stringListReply(Array.isArray(reply) ? reply.flat() : reply, "the session index's members");
  }

  /** Moves the legacy single set's entries into their shards, a batch at a time, until it is empty. */
  private async migrateLegacy(): Promise<void> {
    for (;;) {
      const flat = await this.range("ZRANGE", this.legacyKey, [0, 999, "WITHSCORES"]);
      if (flat.length === 0) return;
      const entries: [string, string][] = [];
      for (let index = 0; index < flat.length; index += 2) entries.push([flat[index]!, flat[index + 1]!]);
      await Promise.all(
        entries.map(([id, score]) => this.transport.command(this.addCommand(id, score, { onlyNew: true }))),
      );
      await this.transport.command(["ZREM", this.legacyKey, ...entries.map(([id]) => id)]);
    }
  }
}

/** FNV-1a (32 bits) of the id's UTF-16 code units, modulo the shard count. Never change it. */
function shardOf(sessionId: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < sessionId.length; index++) {
    hash ^= sessionId.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % INDEX_SHARDS;
}
