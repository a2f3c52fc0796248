// Reading a Redis store's messages list (redis-store-core.ts), for RedisMemoryStore and
// UpstashRedisMemoryStore alike. Peer-free.
import type { AgentMessage } from "../../messages/agent-message";
import { parseStoredMessage } from "../stored-json";
import { stringListReply, tailReply } from "./redis-replies";
import { tailScript } from "./redis-scripts";
import type { RedisTransport } from "./redis-transport";

/**
 * The last `count` messages of the list at `key`, as stored, and the list's length, in one
 * snapshot. The whole list (an Infinity count, as `tailLimit` gives for any count past 2^53) is
 * one LRANGE, its length the list's: the tail script would copy every message through a Lua table
 * on the server, milliseconds more per read at 10,000 messages (bench/compare-builds.ts). A part
 * is the tail script, LLEN and LRANGE in one step; a count of 0 reads the length only.
 */
export async function readMessageTail(
  transport: RedisTransport,
  key: string,
  count: number,
): Promise<{ total: number; raw: string[] }> {
  if (count === Infinity) {
    const raw = stringListReply(await transport.read("LRANGE", key, [0, -1]), "the messages list");
    return { total: raw.length, raw };
  }
  // LRANGE wants integers: "" reads no message.
  return tailReply(await transport.script(tailScript, [key], [count === 0 ? "" : String(-count)]));
}

/** Messages as stored, parsed; `first` is the position of the first in its session (named by a record that does not parse). */
export function parseRedisMessages(
  raw: string[],
  first: number,
  where: { store: string; operation: string; sessionId: string },
): AgentMessage[] {
  return raw.map((text, index) => parseStoredMessage(text, { ...where, record: `message ${first + index}` }));
}
