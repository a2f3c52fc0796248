// The @upstash/redis transport of the Redis stores' shared logic (redis-store-core.ts), over
// HTTP: scripts by EVALSHA (EVAL when the server does not have them yet, SHA-1 from Web Crypto), a
// write as one /pipeline request (the index command, then the script), and every reply that could
// hold a string brought back as one JSON document, so the client's automatic deserialization
// (which JSON-parses every string it can: a session id "123" would come back as a number, one like
// `{"a": 1}` as an object) cannot change a value. Web APIs only: this runs on the edge.
import type { Redis } from "@upstash/redis";
import { pipelineReplies, UnexpectedReplyError } from "../redis/redis-replies";
import type { RedisCommand, RedisTransport } from "../redis/redis-transport";

/**
 * A script whose reply comes back as JSON text (`cjson`). Every script runs this way, so its
 * strings reach the store exactly as stored; cjson writes an empty list as `{}` (read back as []).
 */
const asJson = (source: string) => `local function body()\n${source}\nend\nreturn cjson.encode(body())`;

/** Runs one read command on one key, its reply as JSON. KEYS: the key. ARGV: the command, then its arguments. */
const readScript = `return redis.call(ARGV[1], KEYS[1], unpack(ARGV, 2))`;

const shas = new Map<string, Promise<string>>();

/** The SHA-1 of a script in hex (Web Crypto, computed once per script). */
function scriptSha(source: string): Promise<string> {
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
const isNoScript = (error: unknown) => error instanceof Error && /NOSCRIPT/i.test(error.message);

/** A script's JSON reply, parsed (or as the client's deserialization already parsed it), `{}` as []. */
function jsonReply(reply: unknown): unknown {
  let value = reply;
  if (typeof reply === "string") {
    try {
      value = JSON.parse(reply);
    } catch {
      throw new UnexpectedReplyError("a script's JSON document", reply);
    }
  }
  return emptyObjectsAsLists(value);
}

/** Lua tables are lists here (no script returns a hash): cjson's `{}` for an empty one becomes []. */
function emptyObjectsAsLists(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(emptyObjectsAsLists);
  if (value !== null && typeof value === "object" && Object.keys(value).length === 0) return [];
  return value;
}

/** Adds the write that goes before a script (the index's ZADD, a fact scope's SADD) to a pipeline. */
function addToPipeline(pipeline: ReturnType<Redis["pipeline"]>, [name, key, ...args]: RedisCommand): void {
  const text = String(key);
  if (name === "ZADD") {
    const [score, member] = args.slice(-2);
    const entry = { score: Number(score), member: String(member) };
    if (args[0] === "NX") pipeline.zadd(text, { nx: true }, entry);
    else pipeline.zadd(text, entry);
  } else if (name === "SADD") pipeline.sadd(text, String(args[0]), ...args.slice(1).map(String));
  else throw new Error(`no pipeline form for ${name}`);
}

/** Sends a store's commands through an @upstash/redis client. */
export class UpstashTransport implements RedisTransport {
  readonly serverName = "Upstash Redis";
  /** Upstash runs a script on keys of any slots (one database behind the REST endpoint). */
  readonly cluster = false;
  /** Each read of a resumable stream's follower is a billed HTTP request: 4 a second. */
  readonly followPollMs = 250;

  constructor(private readonly client: Redis) {}

  async script(source: string, keys: string[], args: string[]): Promise<unknown> {
    const json = asJson(source);
    const sha = await scriptSha(json);
    try {
      return jsonReply(await this.client.evalsha(sha, keys, args));
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return jsonReply(await this.client.eval(json, keys, args));
    }
  }

  /**
   * One pipeline (one HTTP request; Upstash runs its commands in order): `first`, then the script
   * by EVALSHA. When the server does not have the script, the pipeline is sent again with EVAL
   * (repeating `first`, which is idempotent). A reply that is not one entry per command is an
   * `UnexpectedReplyError`.
   */
  async writeScript(first: RedisCommand, source: string, keys: string[], args: string[]): Promise<unknown> {
    const json = asJson(source);
    const sha = await scriptSha(json);
    const send = async (byHash: boolean) => {
      const pipeline = this.client.pipeline();
      addToPipeline(pipeline, first);
      if (byHash) pipeline.evalsha(sha, keys, args);
      else pipeline.eval(json, keys, args);
      return jsonReply(pipelineReplies(await pipeline.exec(), 2)[1]);
    };
    try {
      return await send(true);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return await send(false);
    }
  }

  read(command: string, key: string, args: (string | number)[]): Promise<unknown> {
    return this.script(readScript, [key], [command, ...args.map(String)]);
  }

  command(command: RedisCommand): Promise<unknown> {
    return this.client.exec(command);
  }

  /**
   * @upstash/redis appends the whole command to its errors (", command was: [...]", a turn's
   * messages included), which is cut off here (the original stays the error's cause); a failed
   * fetch says why it failed; a reply the client could not read as one reply per command says so.
   */
  errorText(error: unknown): string {
    if (!(error instanceof Error)) return String(error);
    // The client reads a pipeline's reply (every command goes through one: auto-pipelining) as a list
    // of one reply per command, and fails on another shape with a TypeError (the original is the cause).
    if (
      error instanceof TypeError &&
      /\bmap is not a function|Cannot read propert(y|ies) of (undefined|null)/.test(error.message)
    )
      return "the server answered a pipeline with something that is not a list of one reply per command, so nothing can be assumed stored or read (a write may have landed: retrying it is safe, appends are idempotent by message id)";
    if (error instanceof TypeError && /did not return a result/.test(error.message))
      return "the server answered without a result (a reply of another shape), so nothing can be assumed stored or read (a write may have landed: retrying it is safe, appends are idempotent by message id)";
    let text = error.message.replace(/, command was: [\s\S]*$/, "");
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message && !text.includes(cause.message)) text += ` (${cause.message})`;
    if (/unauthori[sz]ed|WRONGPASS|invalid token/i.test(text))
      text += ". Check the REST token the client was given (UPSTASH_REDIS_REST_TOKEN).";
    return text;
  }
}
