// agentcore/upstash is the store for edge routes: bundled for the edge (esbuild, the edge
// bundlers' conditions, platform "neutral", so any Node built-in fails the build) together with
// @upstash/redis, and run inside Vercel's edge-runtime VM (no Node globals: no Buffer or process)
// against the real local Redis through the Upstash REST bridge.
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { EdgeRuntime } from "edge-runtime";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { serviceAvailable, uniqueName } from "./helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "./helpers/upstash-rest-bridge";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const available = await serviceAvailable("redis");

/** The store and the client, bundled as one script that defines `globalThis.exerciseStore`. */
async function bundleForTheEdge(): Promise<{ code: string; inputs: string[] }> {
  const result = await build({
    stdin: {
      resolveDir: root,
      sourcefile: "edge-entry.ts",
      loader: "ts",
      contents: `
        import { Redis } from "@upstash/redis";
        import { UpstashRedisMemoryStore } from "./src/stores/upstash/index.ts";
        globalThis.exerciseStore = async (url, token, prefix) => {
          const store = new UpstashRedisMemoryStore({ client: new Redis({ url, token, retry: false }), prefix });
          await store.appendMessages("edge", [{ id: "1", role: "user", content: "hello from the edge ✓" }, { id: "2", role: "assistant", content: "hi" }]);
          await store.appendMessages("edge", [{ id: "2", role: "assistant", content: "a retried append: skipped" }]);
          await store.setFact("user:u1", { key: "city", value: "Lisbon", createdAt: 1, updatedAt: 1 });
          const release = await store.lockSession("edge", { timeoutMs: 0 });
          const busy = await store.lockSession("edge", { timeoutMs: 0 }).then(() => "taken twice", (error) => error.name);
          await release();
          return {
            tail: await store.getMessageTail("edge", 1),
            facts: await store.getFacts("user:u1"),
            sessions: (await store.entries()).map((entry) => [entry.sessionId, entry.messageCount]),
            busy,
            runtime: typeof EdgeRuntime,
            nodeGlobals: [typeof Buffer, typeof process],
          };
        };
      `,
    },
    bundle: true,
    write: false,
    format: "iife",
    platform: "neutral",
    conditions: ["edge-light", "worker", "browser"],
    mainFields: ["module", "main"],
    target: "es2022",
    metafile: true,
    logLevel: "silent",
  });
  return { code: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs) };
}

describe.skipIf(!available)("agentcore/upstash on the edge", () => {
  let bridge: UpstashRestBridge | undefined;
  afterAll(async () => {
    await bridge?.close();
  });

  it("bundles with no Node built-in, and works inside the edge-runtime VM", async () => {
    const { code, inputs } = await bundleForTheEdge();
    expect(inputs.filter((input) => /^node:|^(fs|path|crypto|module|buffer|os|net|tls)$/.test(input))).toEqual([]);
    expect(inputs.some((input) => input.includes("src/stores/redis/redis-memory-store"))).toBe(false); // the ioredis store stays out
    bridge = await startUpstashRestBridge();
    const vm = new EdgeRuntime();
    vm.evaluate(code);
    const prefix = `${uniqueName("agentcore-edge")}:`;
    const result = await vm.evaluate<Promise<unknown>>(
      `exerciseStore(${JSON.stringify(bridge.url)}, ${JSON.stringify(bridge.token)}, ${JSON.stringify(prefix)})`,
    );
    expect(JSON.parse(JSON.stringify(result))).toEqual({
      tail: { messages: [{ id: "2", role: "assistant", content: "hi" }], total: 2 },
      facts: [{ key: "city", value: "Lisbon", createdAt: 1, updatedAt: 1 }],
      sessions: [["edge", 2]],
      busy: "SessionBusyError",
      runtime: "string",
      nodeGlobals: ["undefined", "undefined"],
    });
    expect(bridge.requests.length).toBeGreaterThan(5); // it really went over HTTP
  });
});
