/**
 * Stop (issue 42): the time from `stopRun()` to the provider request being cancelled, when the stop
 * is sent through a second store object on its own connection (the run on one, the stop on the
 * other: the cross-instance path through the server), by store. The model is the official `openai`
 * client (`createOpenAI`) against a loopback server that streams one chunk and then holds the
 * response open; "cancelled" is the moment the server sees the request's connection close. Also
 * the time until the stopped run has settled (its partial answer stored, the session released).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { Agent, createOpenAI, InMemoryStore, stopRun, type MemoryStore } from "agentcore";
import { PostgresMemoryStore } from "agentcore/postgres";
import { RedisMemoryStore } from "agentcore/redis";
import {
  collectGarbage,
  connectPostgres,
  connectRedis,
  formatSample,
  summarise,
  table,
  type Benchmark,
} from "./harness";

const redisUrl = process.env.AGENTCORE_REDIS_URL ?? "redis://127.0.0.1:6379";
const postgresUrl = process.env.AGENTCORE_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** Two store objects on one database, each on its own connection, or why the row is skipped. */
interface Pair {
  running: MemoryStore;
  stopping: MemoryStore;
  close(): Promise<void>;
}

const pairs: { name: string; open(): Promise<Pair | string> }[] = [
  {
    name: "InMemoryStore (one object, same process)",
    open: async () => {
      const store = new InMemoryStore();
      return { running: store, stopping: store, close: async () => {} };
    },
  },
  {
    name: "RedisMemoryStore (local, two clients)",
    open: async () => {
      const [first, second] = [await connectRedis(redisUrl), await connectRedis(redisUrl)];
      if (typeof first === "string") return first;
      if (typeof second === "string") return second;
      const prefix = `agentcore-bench-stop-${process.pid}:`;
      return {
        running: new RedisMemoryStore({ client: first, prefix }),
        stopping: new RedisMemoryStore({ client: second, prefix }),
        close: async () => {
          await Promise.all([first.quit(), second.quit()]);
        },
      };
    },
  },
  {
    name: "PostgresMemoryStore (local, two pools)",
    open: async () => {
      const [first, second] = [await connectPostgres(postgresUrl), await connectPostgres(postgresUrl)];
      if (typeof first === "string") return first;
      if (typeof second === "string") return second;
      const schema = `agentcore_bench_stop_${process.pid}`;
      return {
        running: new PostgresMemoryStore({ pool: first, schema }),
        stopping: new PostgresMemoryStore({ pool: second, schema }),
        close: async () => {
          await first.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await Promise.all([first.end(), second.end()]);
        },
      };
    },
  },
];

/** A Chat Completions server that streams one chunk, then holds the response until the client closes it. */
async function holdingServer() {
  let onChunk: (() => void) | undefined;
  let onClose: ((at: number) => void) | undefined;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = {
        id: "chatcmpl-bench",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: "gpt-4o-mini",
        choices: [{ index: 0, delta: { role: "assistant", content: "The answer so far" }, finish_reason: null }],
      };
      response.write(`data: ${JSON.stringify(chunk)}\n\n`);
      onChunk?.();
    });
    response.on("close", () => onClose?.(performance.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    /** Resolves when the next request got its chunk, then with the time its connection closed. */
    next(): { chunk: Promise<void>; closed: Promise<number> } {
      const chunk = new Promise<void>((resolve) => {
        onChunk = resolve;
      });
      const closed = new Promise<number>((resolve) => {
        onClose = resolve;
      });
      return { chunk, closed };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const benchmark: Benchmark = {
  title: "Stop: from stopRun() to the provider request cancelled",
  async run({ quick }) {
    const runs = quick ? 3 : 40;
    const warmup = quick ? 1 : 5;
    const server = await holdingServer();
    const model = createOpenAI({ apiKey: "sk-bench", baseURL: server.url, maxRetries: 0 })("gpt-4o-mini");
    const rows: string[][] = [];
    for (const candidate of pairs) {
      const pair = await candidate.open();
      if (typeof pair === "string") {
        rows.push([candidate.name, pair, ""]);
        continue;
      }
      const cancelled: number[] = [];
      const settled: number[] = [];
      collectGarbage();
      for (let index = 0; index < warmup + runs; index++) {
        const sessionId = `stop-bench-${process.pid}-${index}`;
        const request = server.next();
        const stream = new Agent({ model, memoryStore: pair.running }).stream({ input: "Talk", sessionId });
        await request.chunk;
        for await (const _ of stream.textStream) break; // the chunk reached the run
        const start = performance.now();
        await stopRun({ sessionId, memoryStore: pair.stopping });
        const closedAt = await request.closed;
        const result = await stream.response;
        const end = performance.now();
        if (result.finishReason !== "stopped") throw new Error(`run ended with ${result.finishReason}, not stopped`);
        if (index >= warmup) {
          cancelled.push(closedAt - start);
          settled.push(end - start);
        }
        await pair.running.clearMessages(sessionId);
      }
      await pair.close();
      rows.push([candidate.name, formatSample(summarise(cancelled)), formatSample(summarise(settled))]);
    }
    await server.close();
    return `${table(["stop sent through", "stop → provider request closed", "stop → run settled (answer stored, session free)"], rows)}

Median (p10–p90) of ${runs} stops each, after ${warmup} untimed (load average ${loadavg()[0]!.toFixed(1)} at the end). The run streams from the official
\`openai\` client against a loopback server that sends one chunk and holds the response; the stop goes
through a second store object with its own connection (\`stopRun({ sessionId, memoryStore })\`), so
for Redis it travels by pub/sub and for PostgreSQL by \`NOTIFY\` through the server. Upstash is not
measured: its run polls the stop key every 500 ms, so a stop lands within that interval.`;
  },
};
