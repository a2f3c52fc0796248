// agentcore/mcp against a real MCP server (the official SDK's McpServer over stdio, a child
// process: test/servers/mcp-stdio-server.ts), through full agent runs on a scripted model.
import { execFileSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AbortError } from "../../errors/abort-error";
import { isToolPairingValid } from "../../messages/validate-tool-pairing";
import { runToolCalls } from "../../../test/helpers/mcp-run";
import { createMCPClient, MCPClientError, type MCPClient } from "./index";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const stdioServer = {
  type: "stdio" as const,
  command: process.execPath,
  args: ["--import", "tsx", "test/servers/mcp-stdio-server.ts"],
  cwd: root,
};

const pidOf = (mcp: MCPClient) => (mcp.client.transport as StdioClientTransport).pid!;
const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
/** The pids of this process's MCP server children still running. */
const serverProcesses = () =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("mcp-stdio-server"))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
const waitFor = async (check: () => boolean, ms = 5_000) => {
  for (const started = Date.now(); !check() && Date.now() - started < ms; )
    await new Promise((done) => setTimeout(done, 20));
  return check();
};

describe("MCP tools over stdio", () => {
  let mcp: MCPClient;
  beforeAll(async () => {
    mcp = await createMCPClient({ transport: stdioServer });
  });
  afterAll(() => mcp?.close());

  it("takes the server's name and tool schemas, sent to the model as the server wrote them", async () => {
    expect(mcp.name).toBe("agentcore-test-server");
    const tools = await mcp.tools();
    expect(Object.keys(tools).sort()).toEqual(["add", "cancellations", "crash", "hang", "lookup", "media", "weather"]);
    const { model } = await runToolCalls({ add: tools.add! }, []);
    expect(model.calls[0]!.tools).toEqual([
      {
        name: "add",
        description: "Adds two numbers",
        parameters: expect.objectContaining({
          type: "object",
          properties: { a: { type: "number" }, b: { type: "number" } },
          required: ["a", "b"],
        }),
      },
    ]);
  });

  it("runs a call through the agent loop: the result is sent back, stored and paired", async () => {
    const { result, stored, model } = await runToolCalls(await mcp.tools(), [
      { id: "call_add", name: "add", arguments: { a: 2, b: 3 } },
    ]);
    expect(result?.text).toBe("done");
    expect(result?.toolResults).toEqual([
      expect.objectContaining({ toolCallId: "call_add", toolName: "add", result: "5", isError: false }),
    ]);
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored[1]).toMatchObject({ toolCalls: [{ id: "call_add", name: "add", arguments: { a: 2, b: 3 } }] });
    expect(stored[2]).toMatchObject({ role: "tool", toolCallId: "call_add", name: "add", content: "5" });
    expect(isToolPairingValid(stored)).toBe(true);
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "call_add", content: "5" });
  });

  it("runs a step's calls to one server concurrently, each result paired with its own call", async () => {
    const { stored } = await runToolCalls(await mcp.tools(), [
      { id: "c1", name: "add", arguments: { a: 1, b: 1 } },
      { id: "c2", name: "lookup", arguments: { city: "Nowhere" } },
      { id: "c3", name: "add", arguments: { a: 2, b: 2 } },
    ]);
    expect(
      stored.filter((message) => message.role === "tool").map((message) => [message.toolCallId, message.content]),
    ).toEqual([
      ["c1", "2"],
      ["c2", 'Error: Tool "lookup" failed: No city called "Nowhere" in the atlas.'],
      ["c3", "4"],
    ]);
    expect(isToolPairingValid(stored)).toBe(true);
  });

  it("gives structured content as its JSON value", async () => {
    const { result, toolMessages } = await runToolCalls(await mcp.tools(), [
      { name: "weather", arguments: { city: "Lisbon" } },
    ]);
    expect(result?.toolResults[0]?.result).toEqual({ city: "Lisbon", temperatureC: 21, conditions: "sunny" });
    expect(JSON.parse(toolMessages[0]!.content as string)).toEqual({
      city: "Lisbon",
      temperatureC: 21,
      conditions: "sunny",
    });
  });

  it("turns an isError result into a tool error the model sees", async () => {
    const { result, toolMessages, stored } = await runToolCalls(await mcp.tools(), [
      { name: "lookup", arguments: { city: "Atlantis" } },
    ]);
    expect(result?.toolResults[0]?.isError).toBe(true);
    expect(toolMessages[0]!.content).toBe('Error: Tool "lookup" failed: No city called "Atlantis" in the atlas.');
    expect(isToolPairingValid(stored)).toBe(true);
  });

  it("passes images and audio on as parts, and describes resources in text parts", async () => {
    const { toolMessages, model } = await runToolCalls(await mcp.tools(), [{ name: "media", arguments: {} }]);
    const expected = [
      { type: "text", text: "Here is the chart." },
      {
        type: "image",
        image: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        mediaType: "image/png",
      },
      { type: "file", data: "AAAA", mediaType: "audio/wav" },
      {
        type: "text",
        text: "[resource link: q3.pdf <file:///reports/q3.pdf> (application/pdf): Third-quarter report]",
      },
      { type: "text", text: "[resource <file:///notes.txt> (text/plain)]\nremember the milk" },
      {
        type: "text",
        text: "[resource <file:///blob.bin> (application/octet-stream), 6 bytes of binary data not shown]",
      },
    ];
    expect(toolMessages[0]!.content).toEqual(expected);
    // The model got the same parts: no base64 in any text.
    expect(model.calls[1]!.messages.at(-1)!.content).toEqual(expected);
  });

  it("checks the model's arguments against the server's schema before calling", async () => {
    const { toolMessages } = await runToolCalls(await mcp.tools(), [{ name: "add", arguments: { a: "two" } }]);
    expect(toolMessages[0]!.content).toMatch(
      /^Error: Invalid arguments for tool "add": a: .*expected number.*; b: .*Fix the arguments/,
    );
  });

  it("tells the model when the server does not answer in time, and cancels the request", async () => {
    const slow = await createMCPClient({ transport: stdioServer, timeoutMs: 400 });
    try {
      const { result, toolMessages, stored } = await runToolCalls(await slow.tools(), [
        { name: "hang", arguments: {} },
      ]);
      expect(result?.text).toBe("done");
      expect(toolMessages[0]!.content).toBe(
        'Error: Tool "hang" failed: MCP server "agentcore-test-server" did not answer within 400 ms; the request was cancelled.',
      );
      expect(isToolPairingValid(stored)).toBe(true);
      const seen = await slow.client.callTool({ name: "cancellations", arguments: {} });
      expect(seen.content).toEqual([{ type: "text", text: '["hang"]' }]);
    } finally {
      await slow.close();
    }
  });

  it("cancels the MCP request when the run is aborted, leaving a history with no unpaired call", async () => {
    const controller = new AbortController();
    const { error, stored } = await runToolCalls(await mcp.tools(), [{ name: "hang", arguments: {} }], {
      signal: controller.signal,
      onToolCall: () => setTimeout(() => controller.abort(), 100),
    });
    expect(AbortError.isInstance(error)).toBe(true);
    expect(stored.map((message) => message.role)).toEqual(["user"]);
    expect(isToolPairingValid(stored)).toBe(true);
    const seen = async () => (await mcp.client.callTool({ name: "cancellations", arguments: {} })).content;
    for (let tries = 0; tries < 50 && JSON.stringify(await seen()).indexOf("hang") < 0; tries++)
      await new Promise((done) => setTimeout(done, 20));
    expect(await seen()).toEqual([{ type: "text", text: '["hang"]' }]);
  });

  it("with reconnect: false, tells the model when the server process dies mid-call, then that it is gone", async () => {
    const doomed = await createMCPClient({ transport: stdioServer, name: "doomed", reconnect: false });
    const pid = pidOf(doomed);
    const tools = await doomed.tools();
    const first = await runToolCalls(tools, [{ name: "crash", arguments: {} }]);
    expect(first.result?.text).toBe("done");
    expect(first.toolMessages[0]!.content).toBe(
      'Error: Tool "crash" failed: The connection to MCP server "doomed" closed before it answered: the server exited or dropped the connection.',
    );
    expect(isToolPairingValid(first.stored)).toBe(true);
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    const second = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 1 } }]);
    expect(second.toolMessages[0]!.content).toBe(
      'Error: Tool "add" failed: MCP server "doomed" is not connected: the connection was lost earlier (the server exited or dropped it); reconnecting is off (reconnect: false).',
    );
    await expect(doomed.tools()).rejects.toMatchObject({
      name: "MCPClientError",
      reason: "not-connected",
      server: "doomed",
    });
    await doomed.close();
  });

  it("starts a server process that died again on the next call; the call in flight at its death is not sent again", async () => {
    const phoenix = await createMCPClient({ transport: stdioServer, name: "phoenix" });
    const pid = pidOf(phoenix);
    const tools = await phoenix.tools();
    const before = serverProcesses();
    const first = await runToolCalls(tools, [{ name: "crash", arguments: {} }]);
    expect(first.toolMessages[0]!.content).toBe(
      'Error: Tool "crash" failed: The connection to MCP server "phoenix" closed before it answered: the server exited or dropped the connection.',
    );
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    // Concurrent calls after the death share one new process.
    const second = await runToolCalls(tools, [
      { name: "add", arguments: { a: 1, b: 1 } },
      { name: "add", arguments: { a: 2, b: 2 } },
      { name: "add", arguments: { a: 3, b: 3 } },
    ]);
    expect(second.toolMessages.map((message) => message.content)).toEqual(["2", "4", "6"]);
    const respawned = pidOf(phoenix);
    expect(respawned).not.toBe(pid);
    expect(serverProcesses().filter((child) => !before.includes(child))).toEqual([respawned]);
    // The crash call was not sent again: the new process is alive and answering.
    expect(isAlive(respawned)).toBe(true);
    await phoenix.close();
    expect(await waitFor(() => !isAlive(respawned))).toBe(true);
  });

  it("close() during a reconnect leaves no server process behind", async () => {
    const client = await createMCPClient({ transport: stdioServer, name: "brief" });
    const pid = pidOf(client);
    const tools = await client.tools();
    const before = serverProcesses();
    process.kill(pid, "SIGKILL");
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    await waitFor(() => false, 100); // the client sees the exit
    const call = runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    await new Promise((done) => setTimeout(done, 20)); // the new process is being started
    await client.close();
    const { toolMessages } = await call;
    expect(toolMessages[0]!.content).toBe(
      'Error: Tool "add" failed: MCP server "brief" is not connected: its client was closed.',
    );
    expect(await waitFor(() => serverProcesses().every((child) => before.includes(child) && child !== pid))).toBe(true);
  });

  it("a run aborted while the server is being started again ends at once, not after the handshake", async () => {
    const client = await createMCPClient({ transport: stdioServer, name: "impatient" });
    const pid = pidOf(client);
    const tools = await client.tools();
    const lost = client.client;
    process.kill(pid, "SIGKILL");
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    await waitFor(() => false, 100); // the client sees the exit
    const controller = new AbortController();
    const { error, stored } = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }], {
      signal: controller.signal,
      onToolCall: () => setTimeout(() => controller.abort(), 20),
    });
    expect(AbortError.isInstance(error)).toBe(true);
    expect(client.client).toBe(lost); // the handshake with the new process had not finished
    expect(isToolPairingValid(stored)).toBe(true);
    // The reconnect goes on for the next call.
    expect((await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }])).toolMessages[0]!.content).toBe(
      "3",
    );
    expect(pidOf(client)).not.toBe(pid);
    await client.close();
  });

  it("close() ends the server process, can be called twice, and later calls say the client is closed", async () => {
    const client = await createMCPClient({ transport: stdioServer });
    const pid = pidOf(client);
    const tools = await client.tools();
    expect(isAlive(pid)).toBe(true);
    await Promise.all([client.close(), client.close()]);
    await client.close();
    expect(await waitFor(() => !isAlive(pid))).toBe(true);
    const { toolMessages } = await runToolCalls(tools, [{ name: "add", arguments: { a: 1, b: 2 } }]);
    expect(toolMessages[0]!.content).toBe(
      'Error: Tool "add" failed: MCP server "agentcore-test-server" is not connected: its client was closed.',
    );
  });

  it("says which server could not be started", async () => {
    const missing = createMCPClient({
      transport: {
        type: "stdio",
        command: process.execPath,
        args: ["test/servers/no-such-server.js"],
        cwd: root,
        stderr: "ignore",
      },
      name: "ghost",
    });
    await expect(missing).rejects.toSatisfy(
      (error) => MCPClientError.isInstance(error) && error.reason === "connect-failed" && error.server === "ghost",
    );
    await expect(missing).rejects.toThrow(/^Could not connect to MCP server "ghost": /);
    await expect(
      createMCPClient({ transport: { type: "stdio", command: "agentcore-no-such-command" } }),
    ).rejects.toMatchObject({ reason: "connect-failed", server: "agentcore-no-such-command" });
  });

  it("rejects bad options with the fix", async () => {
    await expect(createMCPClient({ transport: { type: "stdio" } as never })).rejects.toMatchObject({
      name: "InvalidArgumentError",
      argument: "transport.command",
    });
    await expect(createMCPClient({ transport: { type: "http", url: "not a url" } })).rejects.toMatchObject({
      argument: "transport.url",
    });
    await expect(createMCPClient({ transport: { type: "websocket" } as never })).rejects.toThrow(/needs a `transport`/);
    await expect(createMCPClient({ transport: stdioServer, timeoutMs: 0 })).rejects.toMatchObject({
      argument: "timeoutMs",
    });
  });
});
