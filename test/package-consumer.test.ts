// Imports the built package the way users do: ESM and CommonJS consumers, and a TypeScript
// consumer type-checked with node16 resolution. The test run builds dist/ first when it is stale (test/helpers/ensure-build.ts).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let project: string;

beforeAll(async () => {
  await ensureFreshBuild();
  project = mkdtempSync(join(tmpdir(), "agentcore-consumer-"));
  mkdirSync(join(project, "node_modules"));
  symlinkSync(root, join(project, "node_modules", "agentcore"), "dir");
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true }));
}, 240_000);

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
    // zod is a dependency of agentcore; a consumer's own zod resolves through the symlinked package.
    symlinkSync(join(root, "node_modules", "zod"), join(project, "node_modules", "zod"), "dir");
    mkdirSync(join(project, "node_modules", "@types"), { recursive: true });
    symlinkSync(join(root, "node_modules", "@types", "node"), join(project, "node_modules", "@types", "node"), "dir");
    execFileSync(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", project], {
      cwd: project,
      encoding: "utf8",
    });
  }, 120_000); // tsc over the whole declaration tree: slow on a loaded 2-core machine
});
