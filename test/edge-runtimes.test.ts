// A streamText chat route with memory (test/edge/chat-route.ts), bundled by esbuild under the edge
// conditions, served from the real runtimes: Vercel's edge-runtime VM (the primitives Next.js
// uses for edge routes) and Cloudflare's workerd. Each must answer 200 with the AI SDK's UI
// message stream, and a second request on the same session must reach the model with the first
// turn in it.
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseJsonEventStream } from "@ai-sdk/provider-utils";
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage as AiUIMessage, type UIMessageChunk } from "ai";
import { EdgeRuntime } from "edge-runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeProject, nodeBuiltinImports, root, type EdgeProject } from "./helpers/edge-bundle";
import { ensureFreshBuild } from "./helpers/ensure-build";

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

let project: EdgeProject;
let workerd: ChildProcess | undefined;

beforeAll(async () => {
  await ensureFreshBuild();
  project = createEdgeProject();
  project.write("chat-route.ts", readFileSync(join(root, "test", "edge", "chat-route.ts"), "utf8"));
}, 240_000);

afterAll(() => {
  if (workerd?.pid !== undefined && workerd.exitCode === null) process.kill(workerd.pid, "SIGTERM");
  project?.remove();
});

const longMessage = "Here is what happened on my trip to the mountains last week. ".repeat(10);

/** The session as the AI SDK's reader sees it: the assistant message the stream builds. */
async function readAssistant(response: Response): Promise<AiUIMessage> {
  const chunks: UIMessageChunk[] = [];
  for await (const result of parseJsonEventStream({
    stream: response.body!,
    schema: uiMessageChunkSchema,
  }) as unknown as AsyncIterable<{ success: boolean; value: UIMessageChunk; error?: unknown }>) {
    if (!result.success) throw new Error(`chunk rejected by the AI SDK schema: ${String(result.error)}`);
    chunks.push(result.value);
  }
  let message: AiUIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return message!;
}

const textOf = (message: AiUIMessage) =>
  message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");

/** The same conversation, driven through any runtime's fetch. */
async function converse(fetchRoute: Fetch): Promise<void> {
  const probe = (await (await fetchRoute("/probe")).json()) as {
    fileStore: { name: string; feature: string; message: string };
    tokens: unknown;
    hasProcess: boolean;
  };
  expect(probe.hasProcess).toBe(false);
  expect(probe.fileStore).toMatchObject({ name: "UnsupportedRuntimeError", feature: "FileMemoryStore" });
  expect(probe.fileStore.message).toMatch(/InMemoryStore.*UpstashRedisMemoryStore/);
  // Nothing has counted yet: the edge build cannot load the tokenizer synchronously.
  expect(probe.tokens).toEqual({ name: "TokenizerNotLoadedError", encoding: "o200k_base" });

  const headers = { "content-type": "application/json", "x-session-id": "user-7" };
  const first = { id: "u1", role: "user", parts: [{ type: "text", text: "Hi, I am Ada." }] };
  const response = await fetchRoute("/chat", { method: "POST", headers, body: JSON.stringify({ messages: [first] }) });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/text\/event-stream/);
  expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
  const answer = await readAssistant(response);
  expect(answer.role).toBe("assistant");
  expect(textOf(answer)).toBe("Nice to meet you, Ada.");

  // The second request carries a long message: the token window has to count, so the run loads
  // the table the route provided (provideTokenizer) inside the runtime and fits the window with it.
  const second = { id: "u2", role: "user", parts: [{ type: "text", text: longMessage }] };
  const next = await fetchRoute("/chat", {
    method: "POST",
    headers,
    body: JSON.stringify({ messages: [first, answer, second] }),
  });
  expect(next.status).toBe(200);
  expect(textOf(await readAssistant(next))).toBe("You told me 2 messages ago.");

  const calls = (await (await fetchRoute("/calls")).json()) as {
    system?: string;
    messages: { role: string; content: string }[];
  }[];
  expect(calls).toHaveLength(2);
  expect(calls[1]!.messages.map(({ role, content }) => ({ role, content }))).toEqual([
    { role: "user", content: "Hi, I am Ada." },
    { role: "assistant", content: "Nice to meet you, Ada." },
    { role: "user", content: longMessage },
  ]);
  expect(calls[1]!.system).toContain("You are a helpful assistant.");
  const after = (await (await fetchRoute("/probe")).json()) as { tokens: unknown };
  expect(after.tokens).toBe(2);
}

describe("a streamText route with memory on the edge runtimes", () => {
  it("runs in Vercel's edge-runtime VM", { timeout: 120_000 }, async () => {
    project.write(
      "edge-vm-entry.ts",
      'import { handle } from "./chat-route";\naddEventListener("fetch", (event) => event.respondWith(handle(event.request)));\n',
    );
    const { metafile } = await project.bundle("edge-vm-entry.ts", {
      format: "iife",
      outdir: join(project.directory, "out-vm"),
    });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    const code = readFileSync(join(project.directory, "out-vm", "edge-vm-entry.js"), "utf8");
    const runtime = new EdgeRuntime({ initialCode: code });
    expect(runtime.evaluate("typeof AbortSignal.any")).toBe("undefined"); // the primitive streamText must do without
    await converse(async (path, init) => {
      const response = await runtime.dispatchFetch(`http://localhost${path}`, init);
      await response.waitUntil();
      // Back to a Node Response, so the AI SDK's reader (outside the VM) reads a Node stream.
      return new Response(await response.arrayBuffer(), {
        status: response.status,
        headers: Object.fromEntries(response.headers),
      });
    });
  });

  it("runs in Cloudflare's workerd", { timeout: 120_000 }, async () => {
    project.write(
      "worker-entry.ts",
      'import { handle } from "./chat-route";\nexport default { fetch: (request: Request) => handle(request) };\n',
    );
    const { metafile } = await project.bundle("worker-entry.ts", {
      minify: true,
      outdir: join(project.directory, "out-worker"),
    });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    project.write(
      "config.capnp",
      `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "out-worker/worker-entry.js")],
  compatibilityDate = "2025-09-01",
);
`,
    );
    // workerd writes each socket's port to the control fd (3) as JSON lines.
    workerd = spawn(
      join(root, "node_modules", ".bin", "workerd"),
      ["serve", join(project.directory, "config.capnp"), "--control-fd=3"],
      {
        cwd: project.directory,
        stdio: ["ignore", "pipe", "pipe", "pipe"],
      },
    );
    let logs = "";
    workerd.stdout!.on("data", (data) => (logs += data));
    workerd.stderr!.on("data", (data) => (logs += data));
    const port = await new Promise<number>((resolve, reject) => {
      let control = "";
      const timer = setTimeout(() => reject(new Error(`workerd did not start within 60 s:\n${logs}`)), 60_000);
      workerd!.on("exit", (code) => reject(new Error(`workerd exited with ${code}:\n${logs}`)));
      (workerd!.stdio[3] as NodeJS.ReadableStream).on("data", (data) => {
        control += data;
        for (const line of control.split("\n")) {
          const event = line.trim()
            ? (JSON.parse(line) as { event?: string; socket?: string; port?: number })
            : undefined;
          if (event?.event === "listen" && event.socket === "http" && event.port) {
            clearTimeout(timer);
            resolve(event.port);
          }
        }
      });
    });
    try {
      await converse((path, init) => fetch(`http://127.0.0.1:${port}${path}`, init));
    } catch (error) {
      throw new Error(`${(error as Error).message}\nworkerd logs:\n${logs}`, { cause: error });
    } finally {
      if (workerd.pid !== undefined && workerd.exitCode === null) process.kill(workerd.pid, "SIGTERM");
    }
  });
});
