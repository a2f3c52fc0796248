// The root entry bundled for the edge as Next.js (edge-light), Cloudflare (workerd, worker) and
// browser bundlers do: no Node built-in anywhere in the bundle, each tokenizer encoding in a chunk
// of its own that only a dynamic import loads, and the sizes reported.
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

  it("keeps each tokenizer encoding in a lazily loaded chunk of its own, and reports the sizes", async () => {
    project.write(
      "route.js",
      'import { InMemoryStore, streamText, convertToModelMessages } from "agentcore";\n' +
        "export async function POST(request) {\n" +
        "  const { messages } = await request.json();\n" +
        '  return streamText({ model: "openai/gpt-4o-mini", messages: convertToModelMessages(messages), sessionId: "s", memoryStore: store, memory: "token_window" }).toUIMessageStreamResponse();\n' +
        "}\n" +
        "const store = new InMemoryStore();\n",
    );
    const { metafile } = await project.bundle("route.js", {
      splitting: true,
      minify: true,
      outdir: `${project.directory}/out-route`,
    });
    expect(nodeBuiltinImports(metafile)).toEqual({});
    const outputs = Object.entries(metafile.outputs).filter(([file]) => file.endsWith(".js"));
    const entry = outputs.find(([, output]) => output.entryPoint?.endsWith("route.js"));
    expect(entry).toBeDefined();
    const chunkWith = (needle: string) =>
      outputs.filter(([, output]) => Object.keys(output.inputs).some((input) => input.includes(needle)));
    // One chunk per encoding, neither in the entry chunk, and no other encoding of gpt-tokenizer bundled.
    const o200k = chunkWith("bpeRanks/o200k_base");
    const cl100k = chunkWith("bpeRanks/cl100k_base");
    expect(o200k).toHaveLength(1);
    expect(cl100k).toHaveLength(1);
    expect(o200k[0]![0]).not.toBe(cl100k[0]![0]);
    expect(o200k[0]![0]).not.toBe(entry![0]);
    expect(chunkWith("bpeRanks/p50k_base").concat(chunkWith("bpeRanks/r50k_base"))).toEqual([]);
    // Nothing of gpt-tokenizer's ranks is imported statically from the entry.
    expect(
      entry![1].imports.filter(
        (imported) =>
          imported.kind === "import-statement" && (imported.path === o200k[0]![0] || imported.path === cl100k[0]![0]),
      ),
    ).toEqual([]);

    const total = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
    console.log(
      `edge bundle of a streamText route (esbuild, minified, splitting): entry chunk ${kib(entry![1].bytes)}, all chunks ${kib(total)}; ` +
        `lazily loaded: o200k_base ${kib(o200k[0]![1].bytes)}, cl100k_base ${kib(cl100k[0]![1].bytes)}`,
    );
  });
});
