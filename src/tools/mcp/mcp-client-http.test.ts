// agentcore/mcp against real MCP servers over streamable HTTP on a loopback port (the official
// SDK's StreamableHTTPServerTransport, in this process), through full agent runs on a scripted model.
import { afterEach, describe, expect, it } from "vitest";
import { AbortError } from "../../errors/abort-error";
import { isToolPairingValid } from "../../messages/validate-tool-pairing";
import { runToolCalls } from "../../../test/helpers/mcp-run";
import { createManyToolsServer, startMcpHttpServer, type McpHttpServer } from "../../../test/servers/mcp-test-server";
import { createMCPClient, MCPClientError, type MCPClient } from "./index";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

async function serve(
  create?: Parameters<typeof startMcpHttpServer>[0],
  options?: Parameters<typeof startMcpHttpServer>[1],
): Promise<McpHttpServer> {
  const server = await startMcpHttpServer(create, options);
  cleanups.push(() => server.close());
  return server;
}

async function connect(options: Parameters<typeof createMCPClient>[0]): Promise<MCPClient> {
  const mcp = await createMCPClient(options);
  cleanups.push(() => mcp.close());
  return mcp;
}

describe("MCP tools over streamable HTTP", () => {
  it("runs a call through the agent loop with the given headers: stored and paired", async () => {
    const server = await serve();
    const mcp = await connect({
      transport: { type: "http", url: server.url, headers: { authorization: "Bearer test-token" } },
    });
    const { result, stored } = await runToolCalls(await mcp.tools(), [
      { id: "call_1", name: "add", arguments: { a: 20, b: 22 } },
    ]);
    expect(result?.text).toBe("done");
    expect(stored[2]).toMatchObject({ role: "tool", toolCallId: "call_1", name: "add", content: "42" });
    expect(isToolPairingValid(stored)).toBe(true);
    expect(server.log.headers.length).toBeGreaterThan(2);
    expect(server.log.headers.every((headers) => headers.authorization === "Bearer test-token")).toBe(true);
  });

  it("reads every page of a long tool list and calls the last tool", async () => {
    const pages: number[] = [];
    const server = await serve(() => createManyToolsServer({ count: 250, pageSize: 40, pages }));
    const mcp = await connect({ transport: { type: "http", url: server.url } });
    const tools = await mcp.tools();
    expect(Object.keys(tools)).toHaveLength(250);
    expect(pages).toEqual([0, 40, 80, 120, 160, 200, 240]);
    const { toolMessages } = await runToolCalls(tools, [{ name: "echo_249", arguments: { text: "last" } }]);
    expect(toolMessages[0]!.content).toBe("echo_249: last");
  });

  it("names tool names providers refuse, and maps them with rename or prefix", async () => {
    const server = await serve(() =>
      createManyToolsServer({ count: 2, pageSize: 10, extraNames: ["files.read", "x".repeat(70)] }),
    );
    const mcp = await connect({ transport: { type: "http", url: server.url }, name: "files" });
    const refused = mcp.tools();
    await expect(refused).rejects.toSatisfy(
      (error) => MCPClientError.isInstance(error) && error.reason === "invalid-tools" && error.server === "files",
    );
    await expect(refused).rejects.toThrow(/"files\.read", "x{70}"\. Map them with tools\(\{ rename/);

    const renamed = await mcp.tools({ prefix: "fs_", rename: (name) => name.replaceAll(".", "_").slice(0, 40) });
    expect(Object.keys(renamed)).toEqual(["fs_echo_0", "fs_echo_1", "fs_files_read", `fs_${"x".repeat(40)}`]);
    const { toolMessages } = await runToolCalls(renamed, [{ name: "fs_files_read", arguments: { text: "a.txt" } }]);
    expect(toolMessages[0]!.content).toBe("files.read: a.txt");

    await expect(mcp.tools({ rename: () => "same" })).rejects.toThrow(/tool names given twice: "same"/);
  });

  it("cancels the MCP request when the run is aborted", async () => {
    const server = await serve();
    const mcp = await connect({ transport: { type: "http", url: server.url } });
    const controller = new AbortController();
    const { error, stored } = await runToolCalls(await mcp.tools(), [{ name: "hang", arguments: {} }], {
      signal: controller.signal,
      onToolCall: () => setTimeout(() => controller.abort(), 100),
    });
    expect(AbortError.isInstance(error)).toBe(true);
    expect(isToolPairingValid(stored)).toBe(true);
    for (let tries = 0; tries < 100 && server.log.cancelled.length === 0; tries++)
      await new Promise((done) => setTimeout(done, 20));
    expect(server.log.cancelled).toEqual(["hang"]);
  });

  it("tells the model when the server goes away mid-call (by the timeout: a broken HTTP stream names no request), then that it is unreachable", async () => {
    const server = await serve();
    const mcp = await connect({ transport: { type: "http", url: server.url }, timeoutMs: 1_000 });
    const tools = await mcp.tools();
    const { result, toolMessages, stored } = await runToolCalls(tools, [{ name: "hang", arguments: {} }], {
      onToolCall: () => setTimeout(() => void server.kill(), 100),
    });
    expect(result?.text).toBe("done");
    expect(toolMessages[0]!.content).toBe(
      'Error: Tool "hang" failed: MCP server "agentcore-test-server" did not answer within 1000 ms; the request was cancelled.',
    );
    expect(isToolPairingValid(stored)).toBe(true);
    const later = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    expect(later.toolMessages[0]!.content).toMatch(
      /^Error: Tool "add" failed: Could not reach MCP server "agentcore-test-server": fetch failed \(.*ECONNREFUSED.*\)\.$/,
    );
  });

  it("after the server restarts (its sessions gone), the next calls get one new session and run once", async () => {
    const first = await startMcpHttpServer();
    const port = Number(new URL(first.url).port);
    const mcp = await connect({ transport: { type: "http", url: first.url } });
    const tools = await mcp.tools();
    expect((await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 1 } }])).toolMessages[0]!.content).toBe(
      "2",
    );
    await first.kill(); // the process died: its connections and sessions are gone
    await new Promise((done) => setTimeout(done, 300)); // a restart takes a while (and the client's pool sees its sockets close)
    const second = await serve(undefined, { port });
    // The old session is refused (HTTP 400 from this server) before anything runs: each call is sent again on the new session.
    const { toolMessages, stored } = await runToolCalls(tools, [
      { name: "add", arguments: { a: 2, b: 2 } },
      { name: "add", arguments: { a: 3, b: 3 } },
      { name: "add", arguments: { a: 4, b: 4 } },
    ]);
    expect(toolMessages.map((message) => message.content)).toEqual(["4", "6", "8"]);
    expect(isToolPairingValid(stored)).toBe(true);
    expect(second.log.sessions).toBe(1);
    expect([...second.log.added].sort()).toEqual([4, 6, 8]); // each ran once
    expect(await mcp.listTools()).not.toHaveLength(0);
    expect(second.log.sessions).toBe(1);
  });

  it("while the server is down, calls say so; once it is back, the next call connects again", async () => {
    const first = await startMcpHttpServer();
    const port = Number(new URL(first.url).port);
    const mcp = await connect({ transport: { type: "http", url: first.url } });
    const tools = await mcp.tools();
    await first.kill();
    const down = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    expect(down.toolMessages[0]!.content).toMatch(
      /^Error: Tool "add" failed: Could not reach MCP server "agentcore-test-server": fetch failed/,
    );
    const stillDown = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    expect(stillDown.toolMessages[0]!.content).toMatch(
      /^Error: Tool "add" failed: The connection to MCP server "agentcore-test-server" was lost and connecting again failed: .*The next request tries again\.$/,
    );
    await expect(mcp.listTools()).rejects.toMatchObject({
      name: "MCPClientError",
      reason: "connect-failed",
      server: "agentcore-test-server",
    });
    const back = await serve(undefined, { port });
    expect((await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }])).toolMessages[0]!.content).toBe(
      "3",
    );
    expect(back.log.sessions).toBe(1);
  });

  it("with reconnect: false, a restarted server stays unreachable for this client", async () => {
    const first = await startMcpHttpServer();
    const port = Number(new URL(first.url).port);
    const mcp = await connect({ transport: { type: "http", url: first.url }, reconnect: false });
    const tools = await mcp.tools();
    await first.kill();
    await new Promise((done) => setTimeout(done, 300));
    const second = await serve(undefined, { port });
    const refused = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    expect(refused.toolMessages[0]!.content).toMatch(
      /^Error: Tool "add" failed: Could not reach MCP server "agentcore-test-server": Streamable HTTP error: Error POSTing to endpoint: .*Server not initialized/,
    );
    await expect(mcp.listTools()).rejects.toThrow(
      /is not connected: the connection was lost earlier .*; reconnecting is off \(reconnect: false\)\.$/,
    );
    expect(second.log.sessions).toBe(0);
  });

  it("says which server could not be reached", async () => {
    const server = await startMcpHttpServer();
    await server.close();
    await expect(createMCPClient({ transport: { type: "http", url: server.url } })).rejects.toMatchObject({
      name: "MCPClientError",
      reason: "connect-failed",
      server: server.url,
    });
  });
});
