// Size limits on what an MCP server sends over streamable HTTP: a tool's text result over the
// agent's maxMessageBytes reaches the model as the tool's error and is never stored whole;
// readResource refuses a resource over its maxBytes with a typed error.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { ToolMessage } from "../../messages/agent-message";
import { InMemoryStore } from "../../stores/in-memory-store";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { startMcpHttpServer } from "../../../test/servers/mcp-test-server";
import { createMCPClient, MCPClientError, type MCPClient } from "./index";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

const bigText = "x".repeat(5000);
const blob = Buffer.from(new Uint8Array(3000).fill(7)).toString("base64"); // 3000 bytes decoded

function createLargeServer(): McpServer {
  const server = new McpServer({ name: "large", version: "1.0.0" });
  server.registerTool("dump", { description: "Dumps a large log" }, async () => ({
    content: [{ type: "text", text: bigText }],
  }));
  server.registerResource("small", "file:///small.txt", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: "text/plain", text: "héllo" }],
  }));
  server.registerResource("big", "file:///big.bin", {}, async (uri) => ({
    contents: [
      { uri: uri.href, mimeType: "text/plain", text: "header" },
      { uri: uri.href, mimeType: "application/octet-stream", blob },
      { uri: uri.href, mimeType: "application/octet-stream", blob },
    ],
  }));
  return server;
}

async function connect(): Promise<MCPClient> {
  const server = await startMcpHttpServer(() => createLargeServer());
  cleanups.push(() => server.close());
  const mcp = await createMCPClient({ transport: { type: "http", url: server.url }, name: "large" });
  cleanups.push(() => mcp.close());
  return mcp;
}

describe("MCP over HTTP and size limits", () => {
  it("gives the model an error for a tool's text result over maxMessageBytes; the store never holds it", async () => {
    const mcp = await connect();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "c1", name: "dump", arguments: {} }] }, { text: "Too long." }],
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "s",
      tools: await mcp.tools(),
      messageLimits: { maxMessageBytes: 1000 },
    });
    const result = await agent.run("Dump the log");
    expect(result.toolResults[0]).toMatchObject({ isError: true });
    const sent = model.calls[1]!.messages.at(-1) as ToolMessage;
    expect(sent.content).toMatch(/^Error: Tool "dump" returned content that cannot be sent: the result is 5000 bytes/);
    const stored = (await store.getMessages("s")).find((message) => message.role === "tool")!;
    expect(stored.content).toBe(sent.content);
  });

  it("readResource refuses a resource over maxBytes with MCPClientError too-large, and reads one within it", async () => {
    const mcp = await connect();
    const small = await mcp.readResource("file:///small.txt", { maxBytes: 6 }); // "héllo" is 6 bytes
    expect(small.text).toBe("héllo");
    await expect(mcp.readResource("file:///small.txt", { maxBytes: 5 })).rejects.toSatisfy(
      (error) => MCPClientError.isInstance(error) && error.reason === "too-large" && error.server === "large",
    );
    // header (6) + 3000 + 3000 bytes: over 5000 at the second blob.
    const refused = mcp.readResource("file:///big.bin", { maxBytes: 5000 });
    await expect(refused).rejects.toThrow(/sent resource "file:\/\/\/big\.bin" larger than the limit of 5000 bytes/);
    const read = await mcp.readResource("file:///big.bin", { maxBytes: 6006 });
    expect(read.parts.map((part) => part.bytes?.length ?? part.text)).toEqual(["header", 3000, 3000]);
    expect(await mcp.readResource("file:///big.bin")).toMatchObject({ uri: "file:///big.bin" }); // default 50 MiB
    await expect(mcp.readResource("file:///small.txt", { maxBytes: -1 })).rejects.toThrow(InvalidArgumentError);
  });
});
