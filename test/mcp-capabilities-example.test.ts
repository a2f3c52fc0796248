// examples/mcp-capabilities.ts runs offline against the reference server (server-everything, a dev
// dependency): a resource as context, a prompt, and the sampling, roots and elicitation tools.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/mcp-capabilities.ts", () => {
  it("runs offline: the server's document, prompt, sampling, roots and elicitation all work", async () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "examples/mcp-capabilities.ts"],
      { cwd: root, env, timeout: 90_000 },
    );
    expect(stdout).toContain("running offline");
    expect(stdout).toMatch(/Resources: .*architecture\.md/);
    expect(stdout).toMatch(/assistant: \(scripted\) I read [1-9]\d* characters of context\./);
    expect(stdout).toContain("prompt: What's weather in Lisbon?");
    expect(stdout).toContain("A haiku: tools call, servers ask back.");
    // Sampling within its bounds: onSampling saw the request, capped to 1,000 tokens; the run's usage holds the sampling's 21 tokens.
    expect(stdout).toContain(
      "[sampling] mcp-servers/everything asks, during trigger-sampling-request, for up to 100 tokens",
    );
    expect(stdout).toMatch(/A haiku: tools call, servers ask back\..*\(21 tokens\)/);
    expect(stdout).toContain("URI: file:///home/ada/project");
    expect(stdout).toContain(
      "[elicitation] mcp-servers/everything asks: Please provide inputs for the following fields:",
    );
    expect(stdout).toContain("User provided the requested information!");
  }, 120_000);
});
