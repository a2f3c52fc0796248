// A Next.js 16 app that installs the packed tarball and no optional peer (no mem0ai, none of the
// stores' clients) must build: `next build` with Turbopack, Next 16's default, of an App Router
// chat route on Agent, streamText, convertToModelMessages and InMemoryStore, and a useChat page. And esbuild, with only the tarball
// installed, must bundle `import { Agent } from "agentcore"` for Node and for the edge. Each
// optional peer agentcore imports lazily has to stay invisible to the bundlers (issue 45.1).
import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDGE_CONDITIONS } from "./helpers/edge-bundle";
import { root, type TarballOnlyApp, tarballOnlyApp } from "./helpers/tarball-only-app";

let app: TarballOnlyApp;

beforeAll(async () => {
  app = await tarballOnlyApp(["next", "react", "react-dom", "ai", "@ai-sdk/react"]);
}, 600_000);

afterAll(() => app?.remove(), 120_000);

// @opentelemetry/api is not among them: @anthropic-ai/sdk, a dependency, depends on it (npm hoists it).
const optionalPeers = ["mem0ai", "@modelcontextprotocol/sdk", "@upstash/redis", "ioredis", "pg", "better-sqlite3"];

const route = `import { Agent, convertToModelMessages, InMemoryStore, streamText } from "agentcore";

const memoryStore = new InMemoryStore();
const options = { model: "openai/gpt-4o-mini", memoryStore, memory: "token_window", maxTokens: 4000 };
const agent = new Agent(options);

export async function POST(request) {
  const { messages } = await request.json();
  return streamText({ ...options, messages: convertToModelMessages(messages), sessionId: "demo" }).toUIMessageStreamResponse();
}

export const dynamic = "force-dynamic";

export async function GET(request) {
  const input = new URL(request.url).searchParams.get("q") ?? "Hi";
  const result = await agent.run({ input, sessionId: "demo" });
  return Response.json({ text: result.text, stored: (await memoryStore.getMessages("demo")).length });
}
`;

const page = `"use client";
import { useChat } from "@ai-sdk/react";

export default function Page() {
  const { messages, sendMessage } = useChat();
  return <main><p>{messages.length} messages</p><button type="button" onClick={() => sendMessage({ text: "Hi" })}>Send</button></main>;
}
`;

const layout = `export default function RootLayout({ children }) {
  return <html lang="en"><body>{children}</body></html>;
}
`;

/** Runs a command to its end; resolves with its exit code and output. */
function runToEnd(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; output: string }>((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolvePromise({ code, output }));
  });
}

describe("the packed package in an app with no optional peer installed", () => {
  it("has none of the optional peers next to agentcore", () => {
    for (const name of optionalPeers) expect(existsSync(join(app.dir, "node_modules", name)), name).toBe(false);
  });

  it("builds with next build (Turbopack)", { timeout: 600_000 }, async () => {
    app.write("app/api/chat/route.js", route);
    app.write("app/page.js", page);
    app.write("app/layout.js", layout);
    // The frameworks are links into this repository's node_modules: Turbopack compiles only files
    // under its root, so the root is the filesystem's.
    app.write("next.config.mjs", 'export default { turbopack: { root: "/" } };\n');
    const started = Date.now();
    const { code, output } = await runToEnd(
      process.execPath,
      [join(root, "node_modules", "next", "dist", "bin", "next"), "build", "--turbopack"],
      app.dir,
      { ...process.env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" },
    );
    console.log(
      `next build (Turbopack) of the tarball-only app: exit ${code} after ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    expect(output).not.toMatch(/Can't resolve|Module not found/);
    expect(code, output).toBe(0);
    expect(output).toMatch(/Turbopack/);
    expect(readdirSync(join(app.dir, ".next", "server", "app", "api", "chat"))).toContain("route.js");
  });

  it("tells, at Mem0Provider's first use, that mem0ai is to be installed", async () => {
    app.write(
      "mem0.mjs",
      `import { Mem0Provider } from "agentcore";
const provider = new Mem0Provider({ apiKey: "m0-key" });
const error = await provider.read({ query: "x", userId: "u" }).then(() => undefined, (thrown) => thrown);
console.log(JSON.stringify({ name: error?.name, feature: error?.feature, message: error?.message }));
`,
    );
    const { code, output } = await runToEnd(process.execPath, ["mem0.mjs"], app.dir, process.env);
    expect(code, output).toBe(0);
    const reported = JSON.parse(output) as { name: string; feature: string; message: string };
    expect(reported).toMatchObject({ name: "UnsupportedRuntimeError", feature: "Mem0Provider" });
    expect(reported.message).toContain("npm install mem0ai");
  });

  it.each([
    ["Node", "node", []],
    ["the edge", "browser", EDGE_CONDITIONS],
  ] as const)("bundles import { Agent } from agentcore with esbuild for %s", async (_name, platform, conditions) => {
    app.write("agent-entry.js", 'import { Agent } from "agentcore";\nconsole.log(typeof Agent);\n');
    const result = await build({
      entryPoints: [join(app.dir, "agent-entry.js")],
      absWorkingDir: app.dir,
      bundle: true,
      platform,
      conditions: [...conditions],
      format: "esm",
      write: false,
      outdir: join(app.dir, "out-esbuild"),
      logLevel: "silent",
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes(platform === "node" ? "dist/index.js" : "dist/edge/index.js"))).toBe(
      true,
    );
  });
});
