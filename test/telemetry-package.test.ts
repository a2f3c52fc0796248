// The built package: @opentelemetry/api stays an optional peer, never imported statically (the root
// entry works without it), and loaded lazily by a traced run without a tracer, from the ESM and the
// CommonJS builds alike. The test run builds dist/ first when it is stale (test/helpers/ensure-build.ts).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const dist = join(root, "dist");

beforeAll(ensureFreshBuild, 240_000);

describe("telemetry in the built package", () => {
  it("never imports @opentelemetry/api statically", () => {
    const files = readdirSync(dist).filter((file) => /\.(c?js)$/.test(file));
    expect(files.length).toBeGreaterThan(2);
    const imports = files.filter((file) => readFileSync(join(dist, file), "utf8").includes("@opentelemetry/api"));
    expect(imports.length).toBeGreaterThan(0);
    for (const file of imports) {
      const code = readFileSync(join(dist, file), "utf8");
      expect(code, file).not.toMatch(
        /(from\s*["']@opentelemetry\/api["']|require\(\s*["']@opentelemetry\/api["']\s*\)|import\s*["']@opentelemetry\/api["'])/,
      );
      // Loaded at run time through a parameter (src/agent/telemetry/resolve-telemetry.ts): no bundler
      // (Turbopack, webpack, esbuild) sees the name inside an import() and tries to resolve it.
      expect(code.match(/import\(\s*(\/\*[^*]*\*\/\s*)*["']@opentelemetry\/api["']/g), file).toBeNull();
    }
  });

  it("traces a run on the global tracer from the ESM and CommonJS builds", () => {
    const body = (load: string) => `
      ${load}
      const exporter = new InMemorySpanExporter();
      trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
      const agent = new Agent({ name: "pkg", model: new MockLanguageModel({ responses: [{ text: "Hi!" }] }), telemetry: {} });
      agent.run("Hello").then(() => console.log(exporter.getFinishedSpans().map((span) => span.name).join(",")));`;
    const names = "agentcore.memory.read,agentcore.memory.fit,chat mock-model,agentcore.memory.write,invoke_agent pkg";
    const cjs = body(`
      const { Agent } = require(${JSON.stringify(join(dist, "index.cjs"))});
      const { MockLanguageModel } = require(${JSON.stringify(join(dist, "testing", "index.cjs"))});
      const { trace } = require("@opentelemetry/api");
      const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = require("@opentelemetry/sdk-trace-base");`);
    expect(execFileSync(process.execPath, ["-e", cjs], { encoding: "utf8", cwd: root }).trim()).toBe(names);
    const esm = body(`
      const { Agent } = await import(${JSON.stringify(join(dist, "index.js"))});
      const { MockLanguageModel } = await import(${JSON.stringify(join(dist, "testing", "index.js"))});
      const { trace } = await import("@opentelemetry/api");
      const { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } = await import("@opentelemetry/sdk-trace-base");`);
    expect(
      execFileSync(process.execPath, ["--input-type=module", "-e", esm], { encoding: "utf8", cwd: root }).trim(),
    ).toBe(names);
  });
});
