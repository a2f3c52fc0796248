// The stream log of the Redis stores (`StreamLog`, stores/stream-log.ts; docs/resumable-streams.md),
// on the same command interface as the rest (redis-transport.ts), so RedisMemoryStore (ioredis,
// Redis or Cluster) and UpstashRedisMemoryStore (HTTP) share it. For a session `s` (URI-encoded
// into `e`, as redis-layout.ts does) and a stream `t`: `<prefix>{e}:stream` (the session's latest
// stream id), `<prefix>{e}:stream:t` (a list of the chunks) and `<prefix>{e}:stream:t:state` (a
// hash: state, bytes). The `{e}` hash tag keeps them in one cluster slot, so each write is one
// script. Every key expires `ttlMs` after the stream's last write. A follower polls (one script
// reading the state and the new chunks together): no blocking command, so the store's own client
// (and Upstash's HTTP) serve it.
import { validateSessionId } from "../../messages/session-id";
import { pollingFollower, type StreamLog, type StreamState, subscribedFollower } from "../stream-log";
import { UnexpectedReplyError } from "./redis-replies";
import type { RedisTransport } from "./redis-transport";

// KEYS: pointer, list, state. ARGV: stream id, ttl.
const beginScript = `
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[3], 'state', 'running', 'bytes', 0)
redis.call('PEXPIRE', KEYS[3], ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`;

// KEYS: pointer, list, state. ARGV: stream id, ttl, max bytes, chunks... Returns 1 when recorded.
const appendScript = `
if redis.call('HGET', KEYS[3], 'state') ~= 'running' then return 0 end
local bytes = tonumber(redis.call('HGET', KEYS[3], 'bytes'))
for i = 4, #ARGV do bytes = bytes + #ARGV[i] end
if bytes > tonumber(ARGV[3]) then
  redis.call('HSET', KEYS[3], 'state', 'overflow')
  redis.call('DEL', KEYS[2])
  redis.call('PEXPIRE', KEYS[3], ARGV[2])
  redis.call('PUBLISH', KEYS[3], '')
  return 0
end
for i = 4, #ARGV do redis.call('RPUSH', KEYS[2], ARGV[i]) end
redis.call('HSET', KEYS[3], 'bytes', bytes)
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('PUBLISH', KEYS[3], '')
return 1`;

// KEYS: pointer, list, state. ARGV: stream id, ttl.
const endScript = `
local state = redis.call('HGET', KEYS[3], 'state')
if not state then return 0 end
if state == 'running' then redis.call('HSET', KEYS[3], 'state', 'done') end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
redis.call('PEXPIRE', KEYS[3], ARGV[2])
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
redis.call('PUBLISH', KEYS[3], '')
return 1`;

// KEYS: pointer. Returns { id } or {} (a table: a bare string would not survive Upstash's JSON replies).
const latestScript = `
local id = redis.call('GET', KEYS[1])
if not id then return {} end
return { id }`;

// KEYS: list, state. ARGV: from. Returns { state, chunks } (state nil: unknown or expired).
const readScript = `
local state = redis.call('HGET', KEYS[2], 'state')
if not state then return {} end
return { state, redis.call('LRANGE', KEYS[1], ARGV[1], -1) }`;

const states = new Set<StreamState>(["running", "done", "overflow"]);

/** Ms between a follower's reads, unless the transport says (`RedisTransport.followPollMs`). */
const DEFAULT_POLL_MS = 50;

/** The stream log of a Redis store with this transport and key prefix. */
export function redisStreamLog(transport: RedisTransport, prefix: string): StreamLog {
  const pollMs = transport.followPollMs ?? DEFAULT_POLL_MS;
  const keys = (sessionId: string, streamId: string) => {
    validateSessionId(sessionId);
    const pointer = `${prefix}{${encodeURIComponent(sessionId)}}:stream`;
    const list = `${pointer}:${encodeURIComponent(streamId)}`;
    return [pointer, list, `${list}:state`];
  };
  return {
    scope: "store",
    async begin(sessionId, streamId, limits) {
      await transport.script(beginScript, keys(sessionId, streamId), [streamId, String(limits.ttlMs)]);
    },
    async append(sessionId, streamId, chunks, limits) {
      const args = [streamId, String(limits.ttlMs), String(limits.maxBytes), ...chunks];
      return Number(await transport.script(appendScript, keys(sessionId, streamId), args)) === 1;
    },
    async end(sessionId, streamId, limits) {
      await transport.script(endScript, keys(sessionId, streamId), [streamId, String(limits.ttlMs)]);
    },
    async latest(sessionId) {
      const [pointer] = keys(sessionId, "");
      const reply = await transport.script(latestScript, [pointer!], []);
      if (!Array.isArray(reply) || reply.length > 1 || (reply.length === 1 && typeof reply[0] !== "string"))
        throw new UnexpectedReplyError("a stream pointer", reply);
      return reply[0] as string | undefined;
    },
    async read(sessionId, streamId, from) {
      const [, list, state] = keys(sessionId, streamId);
      const reply = await transport.script(readScript, [list!, state!], [String(from)]);
      if (!Array.isArray(reply)) throw new UnexpectedReplyError("a stream read", reply);
      if (reply.length === 0) return { chunks: [], state: undefined };
      const [found, chunks] = reply as [unknown, unknown];
      if (
        !states.has(found as StreamState) ||
        !Array.isArray(chunks) ||
        chunks.some((chunk) => typeof chunk !== "string")
      )
        throw new UnexpectedReplyError("a stream read", reply);
      return { chunks: chunks as string[], state: found as StreamState };
    },
    follow: (sessionId, streamId, signal) => {
      if (!transport.subscribe) return pollingFollower(pollMs, signal);
      // Each write publishes on the stream's state key (a channel of the same name).
      const channel = keys(sessionId, streamId)[2]!;
      return subscribedFollower((onMessage) => transport.subscribe!(channel, onMessage), pollMs, signal);
    },
  };
}
