// The few commands the Redis stores' shared logic (redis-store-core.ts) needs from a Redis
// client, so RedisMemoryStore (ioredis over TCP, redis/ioredis-transport.ts) and
// UpstashRedisMemoryStore (@upstash/redis over HTTP, upstash/upstash-transport.ts) differ only in
// how they send them. Peer-free: the Upstash store imports this file.

/** A command and its arguments, e.g. `["ZADD", key, score, member]`. */
export type RedisCommand = [name: string, ...args: (string | number)[]];

/** How a Redis store sends its commands. Replies are Redis's own: strings never JSON-parsed, nil as null. */
export interface RedisTransport {
  /** The server's name in error messages ("Redis", "Upstash Redis"). */
  readonly serverName: string;
  /**
   * Whether keys of different hash slots may live on different servers (a Redis Cluster): then no
   * script touches keys of two slots (a fact's and its writer's session lock, see redis-facts.ts).
   */
  readonly cluster: boolean;
  /** Ms between the reads of a client following a resumable stream (redis-stream-log.ts). @default 50 */
  readonly followPollMs?: number;
  /** Runs a Lua script by EVALSHA (EVAL when the server does not have it yet); resolves to its reply. */
  script(source: string, keys: string[], args: string[]): Promise<unknown>;
  /**
   * A write in one round trip: `first` (the session index's ZADD, a fact scope's SADD), then the
   * script, sent in that order without waiting in between; resolves to the script's reply. The
   * transport may wait after it for replicas (ioredis' `waitForReplicas`).
   */
  writeScript(first: RedisCommand, source: string, keys: string[], args: string[]): Promise<unknown>;
  /** A read command on one key (LRANGE, HGETALL as a flat list, SMEMBERS, ZRANGE, ZRANGEBYSCORE); its reply as Redis sent it. */
  read(command: string, key: string, args: (string | number)[]): Promise<unknown>;
  /** A write command whose reply is an integer, a status or nil (DEL, HDEL, ZADD, ZREM, SET). */
  command(command: RedisCommand): Promise<unknown>;
  /**
   * Calls `onMessage` on each message published on `channel`, once subscribed; resolves to the
   * unsubscription. Absent where the client cannot subscribe (Upstash over HTTP): followers poll.
   */
  subscribe?(channel: string, onMessage: () => void): Promise<() => Promise<void>>;
  /** What went wrong, for a `StoreError`'s message. */
  errorText(error: unknown): string;
}
