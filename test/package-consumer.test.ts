// Imports the packed package the way users get it: `npm pack`, the tarball installed into a fresh
// app (test/helpers/packed-app.ts, shared with test/docs-blocks.test.ts, which runs the README's
// and docs' code there). ESM and CommonJS consumers, every subpath, and a TypeScript consumer
// type-checked with node16 resolution.
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PackedApp, packedApp } from "./helpers/packed-app";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let app: PackedApp;
let project: string;

beforeAll(async () => {
  app = await packedApp();
  project = join(app.dir, `consumer-${process.pid}`);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project);
}, 600_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

const script = (kind: "esm" | "cjs") => `
${kind === "esm" ? 'import { Agent, tool, InMemoryStore, AgentCoreError } from "agentcore";\nimport { MockLanguageModel, testMemoryStore, testMemoryProvider } from "agentcore/testing";' : 'const { Agent, tool, InMemoryStore, AgentCoreError } = require("agentcore");\nconst { MockLanguageModel, testMemoryStore, testMemoryProvider } = require("agentcore/testing");'}
async function main() {
  const model = new MockLanguageModel({ responses: [{ text: "one" }, { text: "two" }] });
  const agent = new Agent({ model, memoryStore: new InMemoryStore() });
  await agent.run("first");
  const result = await agent.run("second");
  let unknown;
  try { new Agent({ model: "nope/x" }); } catch (error) { unknown = AgentCoreError.isInstance(error) && error.name; }
  console.log(JSON.stringify({ text: result.text, seen: model.calls[1].messages.length, unknown, tool: typeof tool, suites: [typeof testMemoryStore, typeof testMemoryProvider] }));
}
main();
`;

describe("the built package", () => {
  it.each(["esm", "cjs"] as const)("imports and runs in a %s consumer", { timeout: 60_000 }, (kind) => {
    const file = join(project, kind === "esm" ? "main.mjs" : "main.cjs");
    writeFileSync(file, script(kind));
    const output = execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual({
      text: "two",
      seen: 3,
      unknown: "NoSuchProviderError",
      tool: "function",
      suites: ["function", "function"],
    });
  });

  it("carries no install-time script: npm installs it without running or warning about one", () => {
    const scripts = app.manifest.scripts ?? {};
    for (const name of ["preinstall", "install", "postinstall", "prepare"]) expect(scripts[name], name).toBeUndefined();
    expect(scripts.prepack).toBe("tsup --silent");
    expect(app.installLog).not.toMatch(/install-scripts|agentcore@[\d.]+ \(/);
  });

  it.each(["esm", "cjs"] as const)("imports every subpath in a %s consumer", { timeout: 60_000 }, (kind) => {
    const subpaths = {
      agentcore: "Agent",
      "agentcore/testing": "MockLanguageModel",
      "agentcore/redis": "RedisMemoryStore",
      "agentcore/postgres": "PostgresMemoryStore",
      "agentcore/sqlite": "SqliteMemoryStore",
      "agentcore/mcp": "createMCPClient",
      "agentcore/upstash": "UpstashRedisMemoryStore",
      "agentcore/semantic": "InMemorySemanticIndex",
      "agentcore/inspector": "createInspectorHandler",
    };
    const file = join(project, kind === "esm" ? "subpaths.mjs" : "subpaths.cjs");
    const load = (specifier: string) => (kind === "esm" ? `await import("${specifier}")` : `require("${specifier}")`);
    writeFileSync(
      file,
      `${kind === "esm" ? "" : "(async () => {\n"}const found = {};\n${Object.entries(subpaths)
        .map(([specifier, name]) => `found["${specifier}"] = typeof (${load(specifier)}).${name};`)
        .join("\n")}\nconsole.log(JSON.stringify(found));\n${kind === "esm" ? "" : "})();\n"}`,
    );
    const output = execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" });
    expect(JSON.parse(output)).toEqual(Object.fromEntries(Object.keys(subpaths).map((key) => [key, "function"])));
  });

  it("type-checks for a TypeScript consumer (node16 resolution, ESM and CJS)", () => {
    writeFileSync(
      join(project, "consumer.mts"),
      `import { Agent, tool, type AgentMessage, type MemoryStore } from "agentcore";
import { MockLanguageModel, testMemoryProvider, type TestMemoryProviderOptions } from "agentcore/testing";
import { InMemorySemanticIndex, type VectorMemoryItem } from "agentcore/semantic";
import type { TelemetryOptions } from "agentcore/telemetry";
import type { FactLimits, PayloadLimits, WindowBehaviourOptions } from "agentcore/tuning";
import { z } from "zod";
export const tuned: [TelemetryOptions, FactLimits, PayloadLimits, WindowBehaviourOptions] = [{ isEnabled: false }, { maxFacts: 5 }, { maxBytes: 1 }, { stablePrefix: false }];
export const index = new InMemorySemanticIndex({ maxDocuments: 10 });
export const items: VectorMemoryItem[] = [];
export const suite: (name: string, factory: () => never, options?: TestMemoryProviderOptions) => void = testMemoryProvider;
const weather = tool({ description: "w", parameters: z.object({ city: z.string() }), execute: async ({ city }) => ({ city }) });
const agent = new Agent({ model: new MockLanguageModel({ responses: [] }), tools: { weather } });
const history: AgentMessage[] = [{ role: "user", content: "hi" }];
export const store: MemoryStore | undefined = undefined;
export const run = agent.run("hi").then((result) => result.text.toUpperCase() + history.length);
`,
    );
    // The design documents' type listings, assigned to the package's types both ways (as in `npm run typecheck`).
    copyFileSync(join(root, "test", "design-docs", "document-types.ts"), join(project, "document-types.mts"));
    writeFileSync(
      join(project, "consumer.cts"),
      `import { Agent } from "agentcore";\nimport { PgVectorSemanticIndex } from "agentcore/semantic";\nimport type { TelemetryTracer } from "agentcore/telemetry";\nexport const make = () => [Agent, PgVectorSemanticIndex];\nexport type Tracer = TelemetryTracer;\n`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          module: "node16",
          moduleResolution: "node16",
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          types: [],
          lib: ["ES2022", "DOM"],
        },
        files: ["consumer.mts", "consumer.cts", "document-types.mts"],
      }),
    );
    execFileSync(process.execPath, [join(app.dir, "node_modules", "typescript", "bin", "tsc"), "-p", project], {
      cwd: project,
      encoding: "utf8",
    });
  }, 120_000); // tsc over the whole declaration tree: slow on a loaded 2-core machine

  it("serves the inspector's page with preact and htm from the package alone, neither installed", () => {
    // preact and htm are embedded in the page's files at build time: a devDependency, not installed with the package.
    for (const name of ["preact", "htm"]) expect(existsSync(join(app.dir, "node_modules", name)), name).toBe(false);
    const file = join(project, "inspector.mjs");
    writeFileSync(
      file,
      `import { InMemoryStore } from "agentcore";
import { createInspectorHandler } from "agentcore/inspector";
const handle = createInspectorHandler({ store: new InMemoryStore(), authorize: () => true });
const served = {};
for (const path of ["/", "/assets/app.js", "/assets/preact.js", "/assets/hooks.js", "/assets/htm.js", "/assets/style.css"]) {
  const response = await handle(new Request("http://127.0.0.1" + path));
  const body = await response.text();
  served[path] = { status: response.status, imports: [...body.matchAll(/\\bfrom\\s*"([^"]+)"/g)].map((match) => match[1]), length: body.length };
}
console.log(JSON.stringify(served));
`,
    );
    const served = JSON.parse(execFileSync(process.execPath, [file], { cwd: project, encoding: "utf8" })) as Record<
      string,
      { status: number; imports: string[]; length: number }
    >;
    for (const [path, { status, length }] of Object.entries(served)) {
      expect(status, path).toBe(200);
      expect(length, path).toBeGreaterThan(0);
    }
    // Everything the page's scripts import is one of its own files: nothing from a CDN or node_modules.
    expect(served["/assets/app.js"]!.imports).toEqual(["./preact.js", "./hooks.js", "./htm.js"]);
    expect(served["/assets/hooks.js"]!.imports).toEqual(["./preact.js"]);
    expect(served["/assets/preact.js"]!.imports).toEqual([]);
    expect(served["/assets/htm.js"]!.imports).toEqual([]);
  });
});
