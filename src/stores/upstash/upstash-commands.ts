// How UpstashRedisMemoryStore talks to Redis through @upstash/redis: scripts by EVALSHA (EVAL
// when the server does not have them yet, SHA-1 from Web Crypto), and reads that come back as
// Redis's own strings whatever the client's `automaticDeserialization` says. Web APIs only: this
// runs on the edge.
import type { Redis } from "@upstash/redis";
import { pipelineReplies, stringListReply, UnexpectedReplyError } from "../redis/redis-replies";
import type { SortedSetCommands } from "../redis/redis-session-index";

/**
 * Runs one read command on one key and returns its reply as JSON text (`cjson`), so the client's
 * automatic deserialization, which JSON-parses every string it can (a session id "123" would come
 * back as a number, one like `{"a": 1}` as an object), cannot change a value: the store parses
 * the one JSON document itself. KEYS: the key. ARGV: the command, then its arguments.
 */
export const readScript = `return cjson.encode(redis.call(ARGV[1], KEYS[1], unpack(ARGV, 2)))`;

/** KEYS: messages. ARGV: the LRANGE start ("" reads nothing). The list's length and its tail, in one snapshot. */
export const tailScript = `
local items = {}
if ARGV[1] ~= '' then items = redis.call('LRANGE', KEYS[1], ARGV[1], -1) end
return cjson.encode({redis.call('LLEN', KEYS[1]), items})
`;

/** KEYS: meta, messages. A session's metadata hash (flat) and message count, in one snapshot. */
export const sessionScript = `return cjson.encode({redis.call('HGETALL', KEYS[1]), redis.call('LLEN', KEYS[2])})`;

const shas = new Map<string, Promise<string>>();

/** The SHA-1 of a script in hex (Web Crypto, computed once per script). */
export function scriptSha(source: string): Promise<string> {
  let sha = shas.get(source);
  if (!sha) {
    sha = globalThis.crypto.subtle
      .digest("SHA-1", new TextEncoder().encode(source))
      .then((digest) => Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join(""));
    shas.set(source, sha);
  }
  return sha;
}

/** Whether an error is Redis saying it does not have the script (then EVAL sends it). */
export function isNoScript(error: unknown): boolean {
  return error instanceof Error && /NOSCRIPT/i.test(error.message);
}

/** Runs a script by EVALSHA, or by EVAL when the server does not have it yet. */
export async function evalScript(client: Redis, source: string, keys: string[], args: string[]): Promise<unknown> {
  const sha = await scriptSha(source);
  try {
    return await client.evalsha(sha, keys, args);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return await client.eval(source, keys, args);
  }
}

/** A JSON reply of the read scripts, parsed (or as the client's deserialization already parsed it). */
export function jsonReply(reply: unknown): unknown {
  if (typeof reply !== "string") return reply;
  try {
    return JSON.parse(reply);
  } catch {
    throw new UnexpectedReplyError("a read script's JSON document", reply);
  }
}

/** Runs `command key ...args` through {@link readScript}; resolves to the reply, parsed from its JSON. */
export async function readRaw(
  client: Redis,
  command: string,
  key: string,
  args: (string | number)[] = [],
): Promise<unknown> {
  return jsonReply(await evalScript(client, readScript, [key], [command, ...args.map(String)]));
}

/** The session index's sorted-set commands on an @upstash/redis client. */
export function upstashSortedSets(client: Redis): SortedSetCommands {
  return {
    add: (key, score, member, options) =>
      options?.onlyNew
        ? client.zadd(key, { nx: true }, { score: Number(score), member })
        : client.zadd(key, { score: Number(score), member }),
    remove: (key, members) => client.zrem(key, ...members),
    range: async (key, start, stop, withScores) =>
      stringListReply(
        await readRaw(client, "ZRANGE", key, withScores ? [start, stop, "WITHSCORES"] : [start, stop]),
        "the session index's members",
      ),
    rangeBelow: async (key, max) =>
      stringListReply(await readRaw(client, "ZRANGEBYSCORE", key, ["-inf", `(${max}`]), "the session index's members"),
  };
}

/**
 * What went wrong, for a StoreError's message: @upstash/redis appends the whole command to its
 * errors (", command was: [...]", a turn's messages included), which is cut off here (the
 * original stays the error's cause); a failed fetch says why it failed.
 */
export function upstashErrorText(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // The client reads a pipeline's reply (every command goes through one: auto-pipelining) as a list
  // of one reply per command, and fails on another shape with a TypeError (the original is the cause).
  if (
    error instanceof TypeError &&
    /\bmap is not a function|Cannot read propert(y|ies) of (undefined|null)/.test(error.message)
  )
    return "the server answered a pipeline with something that is not a list of one reply per command, so nothing can be assumed stored or read (a write may have landed: retrying it is safe, appends are idempotent by message id)";
  let text = error.message.replace(/, command was: [\s\S]*$/, "");
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && cause.message && !text.includes(cause.message)) text += ` (${cause.message})`;
  if (/unauthori[sz]ed|WRONGPASS|invalid token/i.test(text))
    text += ". Check the REST token the client was given (UPSTASH_REDIS_REST_TOKEN).";
  return text;
}

/**
 * One pipeline (one HTTP request): an index write (`first`), then the script by EVALSHA; resolves
 * to the script's reply. When the server does not have the script, the pipeline is sent again
 * with EVAL (repeating the index write, which is idempotent). A reply that is not one entry per
 * command is an `UnexpectedReplyError`.
 */
export async function pipelineWithScript(
  client: Redis,
  source: string,
  keys: string[],
  args: string[],
  first: (pipeline: ReturnType<Redis["pipeline"]>) => unknown,
): Promise<unknown> {
  const sha = await scriptSha(source);
  const send = async (byHash: boolean) => {
    const pipeline = client.pipeline();
    first(pipeline);
    if (byHash) pipeline.evalsha(sha, keys, args);
    else pipeline.eval(source, keys, args);
    return pipelineReplies(await pipeline.exec(), 2)[1];
  };
  try {
    return await send(true);
  } catch (error) {
    if (!isNoScript(error)) throw error;
    return await send(false);
  }
}
