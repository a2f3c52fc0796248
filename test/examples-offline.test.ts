// The examples that had no test of their own run offline as README.md and docs/ say, each from the
// package as a user's copy would import it, and print what they promise. (The others have one
// each: test/*-example.test.ts, test/providers, test/stores-*.)
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsx = pathToFileURL(createRequire(join(root, "package.json")).resolve("tsx")).href;
// A scratch working directory: examples that write files (the inspector's store) write there.
const cwd = mkdtempSync(join(tmpdir(), "agentcore-examples-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

async function runExample(name: string): Promise<{ out: string; err: string }> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--import", tsx, join(root, "examples", name)],
    {
      cwd,
      timeout: 90_000,
    },
  );
  return { out: stdout, err: stderr };
}

/** The lines of `text` that start with `prefix`. */
const linesStarting = (text: string, prefix: string) => text.split("\n").filter((line) => line.startsWith(prefix));

describe("examples without a test of their own", () => {
  it("quickstart.ts: the second run remembers the first, and the store holds both turns", async () => {
    const { out } = await runExample("quickstart.ts");
    expect(out).toContain('You told me earlier: "Hi, remember that I prefer TypeScript." So, TypeScript.');
    expect(out).toContain('The store holds 4 messages for session "quickstart-user-42".');
  }, 120_000);

  it("semantic-memory.ts: the new session's input carries the user's own recalled turns, never another user's", async () => {
    const { out } = await runExample("semantic-memory.ts");
    const block = out.slice(out.indexOf("<recalled_memories>"), out.indexOf("</recalled_memories>"));
    expect(block).toContain("- My sister Ines is visiting from Porto in June.");
    expect(block).not.toContain("Madrid"); // Bob's
    // The block comes first in the user message, the question after it.
    expect(out.indexOf("When is my sister visiting?")).toBeGreaterThan(out.indexOf("</recalled_memories>"));
    const sessions = out
      .split("\n")
      .filter((line) => /^\S+ (user|assistant) /.test(line))
      .map((line) => line.split(" ")[0]);
    expect([...new Set(sessions)]).toEqual(["mon-1", "mon-2", "mon-3", "fri-1"]);
  }, 120_000);

  it("composite-memory.ts: both providers' memories reach the model; the slow one is skipped, not fatal", async () => {
    const { out, err } = await runExample("composite-memory.ts");
    expect(err).toContain("(flaky read skipped: flaky read timed out after 200 ms.)");
    const block = out.slice(out.indexOf("<recalled_memories>"), out.indexOf("</recalled_memories>"));
    expect(block).toContain("- I want to take my holiday in the second half of August.");
    expect(block).toContain("- Handbook: 25 days of paid leave; book through the HR portal.");
  }, 120_000);

  it("ai-sdk-provider.ts: an AI SDK model calls the tool, streams, and the store keeps the pairs", async () => {
    const { out } = await runExample("ai-sdk-provider.ts");
    expect(out).toContain('tool calls: get_weather({"city":"Lisbon"})');
    expect(linesStarting(out, "stored:")).toEqual(["stored: user → assistant → tool → assistant → user → assistant"]);
  }, 120_000);

  it("context-strategies.ts: the token window drops to its budget and the summary strategy sends a summary", async () => {
    const { out } = await runExample("context-strategies.ts");
    const [tokenWindow] = linesStarting(out, "token_window:");
    const [, dropped, kept, used, budget] = /dropped (\d+), kept (\d+) \((\d+) of \d+ tokens, budget (\d+)\)/.exec(
      tokenWindow ?? "",
    )!;
    expect(Number(dropped)).toBeGreaterThan(0);
    expect(Number(kept)).toBeGreaterThan(0);
    expect(Number(used)).toBeLessThanOrEqual(Number(budget));
    expect(linesStarting(out, "summary:")[0]).toMatch(/a summary block: true$/);
  }, 120_000);

  it("memory-tools.ts: facts saved by the model in one thread are in the next thread's system prompt", async () => {
    const { out } = await runExample("memory-tools.ts");
    expect(out).toContain("[memory:write] set preferred_language = TypeScript");
    const facts = out.slice(out.indexOf("<user_facts>"), out.indexOf("</user_facts>"));
    expect(facts).toContain('- "preferred_language": "TypeScript"');
    expect(facts).toContain('- "editor_theme": "dark mode"');
  }, 120_000);

  it("tracing.ts: one agent span holds the memory, model and tool spans in run order", async () => {
    const { out } = await runExample("tracing.ts");
    const spans = out
      .split("\n")
      .filter((line) => / \([\d.]+ ms\)/.test(line))
      .map((line) => line.trim().split(" (")[0]);
    expect(spans).toEqual([
      "invoke_agent weather-assistant",
      "agentcore.memory.read",
      "agentcore.memory.fit",
      "chat gpt-4o-mini",
      "execute_tool get_weather",
      "weather.lookup",
      "agentcore.memory.fit",
      "chat gpt-4o-mini",
      "agentcore.memory.write",
    ]);
  }, 120_000);

  it("inspector.ts: records context reports into its file store and prints the last one", async () => {
    const { out } = await runExample("inspector.ts");
    expect(out).toContain("recalled: Ada drinks green tea. (0.87)");
    expect(out).toMatch(/session demo-\S+: \d+ messages in the window, \d+ tokens/);
    expect(readdirSync(join(cwd, ".agentcore"))).toContain("inspector-demo.json");
  }, 120_000);
});
