// MCP tools whose JSON Schemas recurse, from a real MCP server over stdio (a child process:
// test/servers/mcp-schema-server.ts): a schema that loops on itself is a typed error from
// tools(), and a recursive schema given arguments nested 20,000 deep is a tool error result the
// model can act on, not a stack overflow that fails the run (issue 30, item 6).
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runToolCalls } from "../../../test/helpers/mcp-run";
import { createMCPClient, MCPClientError, type MCPClient } from "./index";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const schemaServer = (...args: string[]) => ({
  type: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", "test/servers/mcp-schema-server.ts", ...args],
  cwd: root,
});

describe("MCP tools with recursive schemas", () => {
  const clients: MCPClient[] = [];
  afterAll(() => Promise.all(clients.map((client) => client.close())));

  it("refuses a tool whose schema refers to itself with an MCPClientError naming it", async () => {
    const mcp = await createMCPClient({ transport: schemaServer("--loop") });
    clients.push(mcp);
    const error = await mcp.tools().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(MCPClientError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ server: "schema-server", reason: "invalid-tools" });
    expect((error as Error).message).toMatch(
      /"loop" \(jsonSchema\(\) cannot use this schema: "#\/\$defs\/a" refers back to itself/,
    );
    expect((error as Error).message).not.toMatch(/"tree"/);
  });

  it("answers arguments nested 20,000 deep with a tool error, and runs a tree of usable depth", async () => {
    const mcp = await createMCPClient({ transport: schemaServer() });
    clients.push(mcp);
    const tools = await mcp.tools();
    let deep: Record<string, unknown> = { name: "leaf" };
    for (let level = 1; level < 20_000; level++) deep = { name: "node", children: [deep] };
    let usable: Record<string, unknown> = { name: "leaf" };
    for (let level = 1; level < 20; level++) usable = { name: "node", children: [usable] };
    const { result, error, toolMessages } = await runToolCalls({ tree: tools.tree! }, [
      { id: "deep", name: "tree", arguments: deep },
      { id: "usable", name: "tree", arguments: usable },
      { id: "invalid", name: "tree", arguments: { name: "root", children: [{ children: [] }] } },
    ]);
    expect(error).toBeUndefined();
    expect(result?.text).toBe("done");
    expect(toolMessages.map((message) => [message.toolCallId, message.content])).toEqual([
      [
        "deep",
        'Error: Invalid arguments for tool "tree": nested deeper than 50 levels of objects and arrays, the limit for tool arguments; call it again with flatter arguments.',
      ],
      ["usable", "depth 20"],
      ["invalid", expect.stringMatching(/^Error: Invalid arguments for tool "tree": children\.0\.name: /)],
    ]);
  });
});
