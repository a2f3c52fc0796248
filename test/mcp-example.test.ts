// examples/mcp-tools.ts runs offline as docs/mcp.md says: it serves its own MCP server over stdio,
// its scripted model calls the server's tool, and the call and result are stored in the session.
import { execFile } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

describe("examples/mcp-tools.ts", () => {
  it("runs offline: the model's MCP tool call and its result are stored with the turn", async () => {
    const env = { ...process.env };
    delete env.OPENAI_API_KEY;
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", "tsx", "examples/mcp-tools.ts"], {
      cwd: root,
      env,
      timeout: 90_000,
    });
    expect(stdout).toContain("running offline");
    expect(stdout).toContain('[tool:call] get_forecast {"city":"Lisbon"} → MCP server "forecast"');
    expect(stdout).toContain("assistant: Tomorrow in Lisbon: sunny with a light breeze, up to 24°C.");
    expect(stdout).toContain(
      'tool [get_forecast]: {"city":"Lisbon","highC":24,"conditions":"sunny with a light breeze"}',
    );
  }, 120_000);
});
