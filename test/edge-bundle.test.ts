// The root entry bundled for the edge as Next.js (edge-light), Cloudflare (workerd, worker) and
// browser bundlers do: no Node built-in anywhere in the bundle, no tokenizer table unless the app
// provides one (then in a chunk of its own that only a dynamic import loads), and the sizes reported.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEdgeProject, nodeBuiltinImports, type EdgeProject } from "./helpers/edge-bundle";
import { ensureFreshBuild } from "./helpers/ensure-build";

let project: EdgeProject;

beforeAll(async () => {
  await ensureFreshBuild();
  project = createEdgeProject();
}, 240_000);

afterAll(() => project?.remove());

const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

// The route of issue 45: an agent with an in-memory store behind a streamText chat endpoint.
const route =
  'import { Agent, InMemoryStore, streamText, convertToModelMessages } from "agentcore";\n' +
  "const memoryStore = new InMemoryStore();\n" +
  'const options = { model: "openai/gpt-4o-mini", memoryStore, memory: "token_window" };\n' +
  "const agent = new Agent(options);\n" +
  "export async function POST(request) {\n" +
  "  const { messages } = await request.json();\n" +
  '  return streamText({ ...options, messages: convertToModelMessages(messages), sessionId: "s" }).toUIMessageStreamResponse();\n' +
  "}\n" +
  'export async function GET() { return Response.json((await agent.run({ input: "Hi", sessionId: "s" })).text); }\n';

describe("agentcore bundled for the edge", () => {
  it("imports no Node built-in, from the root entry or agentcore/testing", async () => {
    project.write(
      "everything.js",
      'import * as agentcore from "agentcore";\nimport * as testing from "agentcore/testing";\nglobalThis.keep = [agentcore, testing];\n',
    );
    const { metafile } = await project.bundle("everything.js", { outdir: `${project.directory}/out-everything` });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    // It is the edge build that was bundled, not the Node one.
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((file) => file.includes("dist/edge/index.js"))).toBe(true);
    expect(inputs.filter((file) => /proper-lockfile|graceful-fs|mem0ai|vitest/.test(file))).toEqual([]);
  });

  it("bundles a chat route into one script of at most 1 MiB gzipped, with no tokenizer table in it, and reports the sizes", async () => {
    // As a Worker's bundler does it (wrangler: esbuild, one script, no splitting): every dynamic
    // import it can resolve is inlined, so a table the edge build imported would be in this script.
    project.write("route.js", route);
    const { metafile } = await project.bundle("route.js", { minify: true, outdir: `${project.directory}/out-route` });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    expect(Object.keys(metafile.inputs).filter((input) => input.includes("gpt-tokenizer"))).toEqual([]);
    const script = readFileSync(join(project.directory, "out-route", "route.js"));
    const gzipped = gzipSync(script).length;
    console.log(
      `edge bundle of { Agent, InMemoryStore, streamText, convertToModelMessages } (esbuild, minified, one script): ${kib(script.length)}, ${kib(gzipped)} gzipped`,
    );
    expect(gzipped).toBeLessThanOrEqual(1024 * 1024);
  });

  it("keeps a table the app provides with a dynamic import in a lazily loaded chunk of its own", async () => {
    project.write(
      "route-with-table.js",
      `import { provideTokenizer } from "agentcore";\nprovideTokenizer({ o200k_base: () => import("gpt-tokenizer/encoding/o200k_base") });\n${route}`,
    );
    const { metafile } = await project.bundle("route-with-table.js", {
      splitting: true,
      minify: true,
      outdir: `${project.directory}/out-route-with-table`,
    });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));
    const entry = outputs.find(([, output]) => output.entryPoint?.endsWith("route-with-table.js"));
    expect(entry).toBeDefined();
    const chunkWith = (needle: string) =>
      outputs.filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes(needle)));
    // One chunk holds o200k, not the entry, which imports it only dynamically; no other table is bundled.
    const o200k = chunkWith("bpeRanks/o200k_base");
    expect(o200k).toHaveLength(1);
    expect(o200k[0]![0]).not.toBe(entry![0]);
    expect(chunkWith("bpeRanks/cl100k_base").concat(chunkWith("bpeRanks/p50k_base"))).toEqual([]);
    expect(
      entry![1].imports.filter((imported) => imported.kind === "import-statement" && imported.path === o200k[0]![0]),
    ).toEqual([]);
    console.log(
      `with provideTokenizer: entry chunk ${kib(entry![1].bytes)}; lazily loaded o200k_base ${kib(o200k[0]![1].bytes)}`,
    );
  });
});
