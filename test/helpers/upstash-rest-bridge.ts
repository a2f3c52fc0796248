// A loopback server that speaks Upstash Redis's REST protocol, backed by the real local Redis
// (through ioredis), so @upstash/redis itself can be tested here with no network:
//
//   POST /             a command as a JSON array, ["SET", "key", "value"]  → { result } | 400 { error }
//   POST /pipeline     an array of commands, run in order (not atomically) → [{ result } | { error }, …]
//   POST /multi-exec   an array of commands in one MULTI/EXEC transaction  → [{ result } | { error }, …]
//                      (a command refused when queued aborts it: 400 { error: "EXECABORT …" })
//
// Every request needs `Authorization: Bearer <token>` (else 401). With `Upstash-Encoding: base64`
// (what @upstash/redis sends by default) every string in a result is base64 of its bytes except
// the status reply "OK", as the client's decoder expects; without it, strings are UTF-8 text.
// EVAL, EVALSHA and SCRIPT LOAD are ordinary commands and pass through.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Redis } from "ioredis";
import { redisUrl } from "./services";

/** A running bridge. */
export interface UpstashRestBridge {
  /** The REST URL to give `new Redis({ url, token })` from @upstash/redis. */
  url: string;
  token: string;
  /** Requests served, by path ("/", "/pipeline", "/multi-exec"), for tests that check what was sent. */
  requests: { path: string; body: unknown }[];
  /** Every key a command named (for cleanup). */
  touchedKeys: Set<string>;
  /** Makes every request fail with this HTTP status until called with undefined. */
  failWith(status: number | undefined): void;
  /**
   * While true, EVALSHA answers `NOSCRIPT` as a server without the script would (after a restart
   * or SCRIPT FLUSH), without flushing the scripts of the shared local Redis.
   */
  forgetScripts(forget: boolean): void;
  /** Deletes every key touched through the bridge, then stops it and closes its Redis connection. */
  close(): Promise<void>;
}

type Reply = Buffer | number | null | Reply[] | Error | Record<string, Buffer>;

/** Starts a bridge on 127.0.0.1 (a free port) to the local Redis. */
export async function startUpstashRestBridge(options: { token?: string } = {}): Promise<UpstashRestBridge> {
  const token = options.token ?? `bridge-${Math.random().toString(36).slice(2)}`;
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const requests: UpstashRestBridge["requests"] = [];
  const touchedKeys = new Set<string>();
  let failing: number | undefined;
  let forgetting = false;
  const isEvalsha = (command: string[]) => forgetting && command[0]!.toUpperCase() === "EVALSHA";

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(body));
    };
    if (failing !== undefined) return send(failing, { error: `bridge told to fail with ${failing}` });
    if (request.method !== "POST") return send(405, { error: "only POST is served" });
    if (request.headers.authorization !== `Bearer ${token}`) return send(401, { error: "Unauthorized" });
    const path = new URL(request.url ?? "/", "http://bridge").pathname;
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(await readAll(request)).toString("utf8"));
    } catch {
      return send(400, { error: "ERR the request body is not JSON" });
    }
    requests.push({ path, body });
    const base64 = request.headers["upstash-encoding"] === "base64";
    const encode = (reply: Reply): unknown => encodeReply(reply, base64);

    if (path === "/") {
      const command = commandOf(body);
      if (!command) return send(400, { error: "ERR a command is a non-empty JSON array of strings and numbers" });
      touch(command, touchedKeys);
      if (isEvalsha(command)) return send(400, { error: "NOSCRIPT No matching script. Please use EVAL." });
      try {
        return send(200, { result: encode((await redis.callBuffer(...(command as [string, ...string[]]))) as Reply) });
      } catch (error) {
        return send(400, { error: (error as Error).message });
      }
    }
    if (path === "/pipeline" || path === "/multi-exec") {
      const commands = Array.isArray(body) ? body.map(commandOf) : [];
      if (commands.length === 0 || commands.some((command) => !command))
        return send(400, { error: "ERR the body must be a non-empty array of commands" });
      for (const command of commands) touch(command!, touchedKeys);
      const batch = path === "/pipeline" ? redis.pipeline() : redis.multi();
      // A forgotten script: an unknown SHA, so that command alone fails with Redis's own NOSCRIPT.
      for (const command of commands)
        batch.callBuffer(
          ...((isEvalsha(command!) ? ["EVALSHA", "0".repeat(40), "0"] : command) as [string, ...string[]]),
        );
      try {
        const replies = (await batch.exec()) ?? [];
        return send(
          200,
          replies.map(([error, reply]) => (error ? { error: error.message } : { result: encode(reply as Reply) })),
        );
      } catch (error) {
        return send(400, { error: (error as Error).message }); // EXECABORT: nothing of the transaction ran
      }
    }
    return send(404, { error: `no route ${path}` });
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "application/json" });
      response.end(JSON.stringify({ error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    requests,
    touchedKeys,
    failWith: (status) => void (failing = status),
    forgetScripts: (forget) => void (forgetting = forget),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const keys = [...touchedKeys];
      for (let start = 0; start < keys.length; start += 500) await redis.del(...keys.slice(start, start + 500));
      await redis.quit();
    },
  };
}

async function readAll(request: IncomingMessage): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks;
}

function commandOf(value: unknown): string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  if (!value.every((part) => typeof part === "string" || typeof part === "number" || typeof part === "boolean"))
    return undefined;
  return value.map(String);
}

/** Strings as base64 of their bytes (or UTF-8 text), the status "OK" as is, errors inside a reply as their message. */
function encodeReply(reply: Reply, base64: boolean): unknown {
  if (reply === null || typeof reply === "number") return reply;
  if (reply instanceof Error) return reply.message;
  if (Array.isArray(reply)) return reply.map((item) => encodeReply(item, base64));
  // ioredis turns an HGETALL reply into an object; Redis (and Upstash) send the flat array.
  if (!Buffer.isBuffer(reply))
    return Object.entries(reply).flatMap(([field, value]) => [
      encodeReply(Buffer.from(field), base64),
      encodeReply(value, base64),
    ]);
  if (reply.length === 2 && reply.toString("latin1") === "OK") return "OK";
  return base64 ? reply.toString("base64") : reply.toString("utf8");
}

/** Records the keys a command names: EVAL/EVALSHA by their key count, DEL and friends all arguments, else the first. */
function touch(command: string[], keys: Set<string>): void {
  const name = command[0]!.toUpperCase();
  const args = command.slice(1);
  if (name === "EVAL" || name === "EVALSHA" || name === "EVAL_RO" || name === "EVALSHA_RO") {
    for (const key of args.slice(2, 2 + Number(args[1]))) keys.add(key);
  } else if (["DEL", "UNLINK", "EXISTS", "MGET", "TOUCH", "WATCH"].includes(name)) {
    for (const key of args) keys.add(key);
  } else if (
    !["SCRIPT", "PING", "ECHO", "TIME", "DBSIZE", "INFO", "MULTI", "EXEC", "FLUSHDB", "FLUSHALL"].includes(name) &&
    args[0] !== undefined
  ) {
    keys.add(args[0]);
  }
}
