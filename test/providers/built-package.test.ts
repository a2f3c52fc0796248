// The built ESM and CJS bundles (package.json has "sideEffects": false) still resolve
// "openai/<model>" and "anthropic/<model>", load no SDK at import, and run against a local
// OpenAI-compatible server named by OPENAI_BASE_URL.
import { execFile } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { build, type Options } from "tsup";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import buildConfigs from "../../tsup.config";
import { FakeLlmServer } from "../servers/fake-llm-server";
import { openaiCompletion } from "../servers/wire-formats";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
// Inside the project so the bundles resolve `openai` from its node_modules; apart from dist/ so
// this test never races the package-consumer test's build.
const outDir = join(root, "node_modules", ".cache", "agentcore-providers-test");
let server: FakeLlmServer;

beforeAll(async () => {
  // The Node build's own options (tsup.config.ts has a second, edge build: run through the CLI with
  // --out-dir, both would write index.js into the one directory at once and interleave).
  const [nodeBuild] = buildConfigs as Options[];
  await build({
    ...nodeBuild,
    config: false,
    entry: { index: "src/index.ts" },
    outDir,
    clean: true,
    dts: false,
    sourcemap: false,
    silent: true,
  });
  server = await FakeLlmServer.start();
}, 60_000);

afterAll(async () => {
  await server?.close();
  rmSync(outDir, { recursive: true, force: true });
});

const script = (kind: "esm" | "cjs") => `
${kind === "esm" ? `import * as agentcore from ${JSON.stringify(join(outDir, "index.js"))};` : `const agentcore = require(${JSON.stringify(join(outDir, "index.cjs"))});`}
const loaded = () => ${kind === "cjs" ? "Object.keys(require.cache).filter((file) => /node_modules[\\\\/](openai|@anthropic-ai)[\\\\/]/.test(file)).length" : "null"};
(async () => {
  const afterImport = loaded();
  const claude = new agentcore.Agent({ model: "anthropic/claude-sonnet-4" });
  const agent = new agentcore.Agent({ model: "openai/gpt-4o-mini" });
  const afterConstruct = loaded();
  const result = await agent.run("Hi");
  console.log(JSON.stringify({
    providers: agentcore.listProviders(),
    openai: [agent.model.provider, agent.model.modelId],
    anthropic: [claude.model.provider, claude.model.modelId],
    afterImport, afterConstruct, text: result.text,
  }));
})().catch((error) => { console.error(error); process.exit(1); });
`;

describe("the built bundles", () => {
  it.each(["esm", "cjs"] as const)("register the built-in providers (%s)", async (kind) => {
    const file = join(outDir, kind === "esm" ? "check.mjs" : "check.cjs");
    writeFileSync(file, script(kind));
    server.enqueue(openaiCompletion({ text: `hello ${kind}` }));
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      env: { ...process.env, OPENAI_API_KEY: "", OPENAI_BASE_URL: `${server.url}/v1`, ANTHROPIC_API_KEY: "" },
    });
    const output = JSON.parse(stdout);
    expect(output).toMatchObject({
      openai: ["openai", "gpt-4o-mini"],
      anthropic: ["anthropic", "claude-sonnet-5-5"],
      text: `hello ${kind}`,
    });
    expect(output.providers).toEqual(expect.arrayContaining(["anthropic", "openai"]));
    if (kind === "cjs") {
      expect(output.afterImport).toBe(0);
      expect(output.afterConstruct).toBe(0);
    }
  });
});
