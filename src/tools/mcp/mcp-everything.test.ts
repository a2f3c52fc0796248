// agentcore/mcp's client capabilities (sampling, elicitation, roots), task tools, resources and
// prompts against the MCP reference server `@modelcontextprotocol/server-everything` (a dev
// dependency), started by the tests over stdio and over streamable HTTP.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { runToolCalls } from "../../../test/helpers/mcp-run";
import { Agent } from "../../agent/agent";
import { createMCPClient, type MCPClient, MCPClientError, type MCPElicitationRequest } from "./index";
import type { MCPClientOptions } from "./create-mcp-client";

const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json");
const serverScript = join(dirname(everything), "dist/index.js");
const stdio = {
  type: "stdio" as const,
  command: process.execPath,
  args: [serverScript, "stdio"],
  stderr: "ignore" as const,
};

const clients: MCPClient[] = [];
afterAll(() => Promise.all(clients.map((mcp) => mcp.close())));
async function connect(options: Partial<MCPClientOptions> = {}): Promise<MCPClient> {
  const mcp = await createMCPClient({ transport: stdio, ...options });
  clients.push(mcp);
  return mcp;
}

/** A scripted model: the agent calls `toolName` with `args`, then answers; sampling requests are answered "sampled: <prompt>". */
function samplingAwareModel(toolName: string, args: object) {
  return new MockLanguageModel({
    provider: "mock",
    modelId: "agent-model",
    responses: (call) => {
      if (call.system?.includes("You are a helpful test server."))
        return { text: `sampled: ${call.messages.at(-1)!.content as string}` };
      return call.messages.at(-1)?.role === "tool"
        ? { text: "done" }
        : { toolCalls: [{ name: toolName, arguments: args }] };
    },
  });
}

describe("MCP client capabilities against server-everything (stdio)", () => {
  it("lists the capability tools only when the client offers the capability", async () => {
    const plain = Object.keys(await (await connect()).tools());
    expect(plain).not.toContain("trigger-sampling-request");
    expect(plain).not.toContain("trigger-elicitation-request");
    expect(plain).not.toContain("get-roots-list");
    const full = Object.keys(
      await (await connect({ sampling: true, elicitation: async () => ({ action: "decline" }), roots: [] })).tools(),
    );
    expect(full).toEqual(
      expect.arrayContaining(["trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"]),
    );
  });

  it("answers sampling with the agent's own model by default", async () => {
    const mcp = await connect({ sampling: true });
    const model = samplingAwareModel("trigger-sampling-request", { prompt: "hello", maxTokens: 50 });
    const generate = vi.spyOn(model, "doGenerate");
    const agent = new Agent({ model, tools: await mcp.tools(), sessionId: "sampling" });
    const result = await agent.run("go");
    expect(result.text).toBe("done");
    const sampling = model.calls.find((call) => call.system?.includes("You are a helpful test server."))!;
    expect(sampling.messages).toEqual([{ role: "user", content: "Resource trigger-sampling-request context: hello" }]);
    expect(generate.mock.calls.find(([call]) => call.system === sampling.system)![0]).toMatchObject({
      maxOutputTokens: 50,
      temperature: 0.7,
      abortSignal: expect.any(AbortSignal),
    });
    const toolMessage = result.messages.find((message) => message.role === "tool")!;
    expect(toolMessage.content).toContain('"text": "sampled: Resource trigger-sampling-request context: hello"');
    expect(toolMessage.content).toContain('"model": "mock/agent-model"');
  });

  it("answers sampling with the model given, and fails the call when there is no model to use", async () => {
    const sampler = new MockLanguageModel({
      provider: "mock",
      modelId: "sampler",
      responses: [{ text: "from sampler" }],
    });
    const mcp = await connect({ sampling: { model: sampler } });
    const { toolMessages } = await runToolCalls(await mcp.tools(), [
      { name: "trigger-sampling-request", arguments: { prompt: "x" } },
    ]);
    expect(toolMessages[0]!.content).toContain('"model": "mock/sampler"');
    expect(sampler.calls).toHaveLength(1);

    // Called outside an agent (no model in the context) and with no sampling model: a tool error, not a hang.
    const bare = await connect({ sampling: true });
    const tools = await bare.tools();
    await expect(
      tools["trigger-sampling-request"]!.execute!({ prompt: "x" }, { toolCallId: "c", sessionId: "s", messages: [] }),
    ).rejects.toThrow(/No model to sample with/);
  });

  it("asks the user through the elicitation callback, with the waiting tool call, and the clock stops meanwhile", async () => {
    const asked: MCPElicitationRequest[] = [];
    const mcp = await connect({
      timeoutMs: 1_000,
      elicitation: async (request) => {
        asked.push(request);
        await new Promise((done) => setTimeout(done, 1_500)); // longer than timeoutMs: the user's time is not the server's
        return { action: "accept", content: { name: "Ada Lovelace", check: true } };
      },
    });
    const { toolMessages } = await runToolCalls(await mcp.tools(), [
      { id: "call_e", name: "trigger-elicitation-request", arguments: {} },
    ]);
    expect(toolMessages[0]!.content).toContain("- Name: Ada Lovelace");
    expect(toolMessages[0]!.content).toContain("- Agreed to terms: true");
    expect(asked).toHaveLength(1);
    expect(asked[0]!.server).toBe("mcp-servers/everything");
    expect(asked[0]!.message).toBe("Please provide inputs for the following fields:");
    expect(asked[0]!.requestedSchema).toMatchObject({ type: "object", required: ["name"] });
    expect(asked[0]!.toolCall).toEqual({
      toolName: "trigger-elicitation-request",
      toolCallId: "call_e",
      sessionId: "mcp-session",
      runId: expect.any(String),
    });
  }, 20_000);

  it("refuses an answer that does not fit the requested schema, and passes decline on", async () => {
    const answers = [{ action: "accept" as const, content: { check: true } }, { action: "decline" as const }];
    const mcp = await connect({ elicitation: async () => answers.shift()! });
    const tools = await mcp.tools();
    const first = await runToolCalls(tools, [{ name: "trigger-elicitation-request", arguments: {} }]);
    expect(first.toolMessages[0]!.content).toMatch(/^Error: .*does not fit the requested schema.*name/s);
    const second = await runToolCalls(tools, [{ name: "trigger-elicitation-request", arguments: {} }]);
    expect(second.toolMessages[0]!.content).toContain("User declined to provide the requested information");
  });

  it("gives the roots, and tells the server when they change", async () => {
    const mcp = await connect({ roots: [{ uri: "file:///work/project-a", name: "project-a" }] });
    const getRoots = (await mcp.tools())["get-roots-list"]!;
    const call = async () => String(await getRoots.execute!({}, { toolCallId: "c", sessionId: "s", messages: [] }));
    expect(await call()).toContain("URI: file:///work/project-a");
    await mcp.setRoots([{ uri: "file:///work/project-b", name: "project-b" }]);
    let text = await call();
    for (let attempt = 0; attempt < 100 && !text.includes("project-b"); attempt++) {
      await new Promise((done) => setTimeout(done, 20));
      text = await call();
    }
    expect(text).toContain("URI: file:///work/project-b");
    expect(text).not.toContain("project-a");
  });

  it("refuses roots that are not file URIs, and setRoots on a client made without roots", async () => {
    await expect(connect({ roots: [{ uri: "/work/project" }] })).rejects.toSatisfy(
      (error) => InvalidArgumentError.isInstance(error) && error.argument === "roots[0].uri",
    );
    const mcp = await connect();
    await expect(mcp.setRoots([{ uri: "file:///x" }])).rejects.toSatisfy(
      (error) => InvalidArgumentError.isInstance(error) && error.argument === "roots",
    );
  });

  it("runs a tool that requires a task through the SDK's task API, answering its question on the way", async () => {
    const mcp = await connect({
      elicitation: async () => ({ action: "accept", content: { interpretation: "snake" } }),
    });
    const tools = await mcp.tools();
    expect(Object.keys(tools)).toContain("simulate-research-query");
    const { toolMessages } = await runToolCalls(tools, [
      { name: "simulate-research-query", arguments: { topic: "python", ambiguous: true } },
    ]);
    expect(toolMessages[0]!.content).toContain("# Research Report: python (snake)");
  }, 30_000);

  it("lists and reads resources as agentcore shapes", async () => {
    const mcp = await connect();
    const resources = await mcp.resources();
    const architecture = resources.find((resource) => resource.name === "architecture.md")!;
    expect(architecture).toEqual({
      uri: "demo://resource/static/document/architecture.md",
      name: "architecture.md",
      description: expect.any(String),
      mimeType: "text/markdown",
    });
    const read = await mcp.readResource(architecture.uri);
    expect(read.text).toBe(readFileSync(join(dirname(serverScript), "docs/architecture.md"), "utf8"));
    expect(read.parts).toEqual([{ uri: architecture.uri, mimeType: "text/markdown", text: read.text }]);

    const blob = await mcp.readResource("demo://resource/dynamic/blob/1");
    expect(blob.parts[0]!.bytes).toBeInstanceOf(Uint8Array);
    expect(blob.parts[0]!.bytes!.length).toBeGreaterThan(0);
    expect(blob.text).toMatch(/^\[resource <demo:\/\/resource\/dynamic\/blob\/1>.* of binary data not shown\]$/);

    await expect(mcp.readResource("demo://no/such/thing")).rejects.toSatisfy(
      (error) => MCPClientError.isInstance(error) && error.reason === "server-error",
    );
  });

  it("lists prompts and fills one in as AgentMessages", async () => {
    const mcp = await connect();
    const prompts = await mcp.prompts();
    expect(prompts.find((prompt) => prompt.name === "args-prompt")).toEqual({
      name: "args-prompt",
      title: "Arguments Prompt",
      description: "A prompt with two arguments, one required and one optional",
      arguments: [
        { name: "city", description: "Name of the city", required: true },
        { name: "state", required: false },
      ],
    });
    const filled = await mcp.getPrompt("args-prompt", { city: "Lisbon" });
    expect(filled.messages).toEqual([{ role: "user", content: expect.stringContaining("Lisbon") }]);
    expect(filled.text).toBe(filled.messages[0]!.content);

    const withResource = await mcp.getPrompt("resource-prompt", { resourceType: "Text", resourceId: "1" });
    expect(withResource.text).toContain("[resource <demo://resource/dynamic/text/1>");
    await expect(mcp.getPrompt("args-prompt", { city: 7 as unknown as string })).rejects.toSatisfy(
      (error) => InvalidArgumentError.isInstance(error) && error.argument === "args.city",
    );
  });
});

describe("MCP client capabilities against server-everything (streamable HTTP)", () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [serverScript, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    });
    await new Promise<void>((ready, fail) => {
      let output = "";
      child.stderr!.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("listening on port")) ready();
      });
      child.once("exit", (code) => fail(new Error(`server-everything exited (${code}): ${output}`)));
    });
    url = `http://127.0.0.1:${port}/mcp`;
  }, 30_000);
  afterAll(() => {
    child?.kill();
  });

  it("samples with the agent's model, gives roots and reads resources over HTTP", async () => {
    const mcp = await createMCPClient({
      transport: { type: "http", url },
      sampling: true,
      roots: [{ uri: "file:///srv/data" }],
    });
    clients.push(mcp);
    const tools = await mcp.tools();
    const model = samplingAwareModel("trigger-sampling-request", { prompt: "over http" });
    const result = await new Agent({ model, tools, sessionId: "http" }).run("go");
    expect(result.messages.find((message) => message.role === "tool")!.content).toContain(
      "sampled: Resource trigger-sampling-request context: over http",
    );
    const roots = await tools["get-roots-list"]!.execute!({}, { toolCallId: "c", sessionId: "s", messages: [] });
    expect(String(roots)).toContain("URI: file:///srv/data");
    expect((await mcp.resources()).length).toBeGreaterThan(0);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("a tool that runs only as a task, on a server that does not offer tasks", () => {
  it("is left out of tools() with a warning naming it, and the other tools stay", async () => {
    const { Server } = await import("@modelcontextprotocol/sdk/server/index.js");
    const { InMemoryTransport } = await import("@modelcontextprotocol/sdk/inMemory.js");
    const { ListToolsRequestSchema, CallToolRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    const server = new Server({ name: "no-tasks", version: "1.0.0" }, { capabilities: { tools: {} } });
    const inputSchema = { type: "object" as const, properties: {} };
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        { name: "report", inputSchema, execution: { taskSupport: "required" as const } },
        { name: "ping", inputSchema },
      ],
    }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text" as const, text: "pong" }] }));
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const warnings: string[] = [];
    const mcp = await createMCPClient({ transport: clientSide, onWarning: (message) => warnings.push(message) });
    clients.push(mcp);
    const tools = await mcp.tools();
    expect(Object.keys(tools)).toEqual(["ping"]);
    expect(warnings).toEqual([
      'MCP server "no-tasks" lists tools that run only as tasks but does not offer tasks: "report". They are left out of tools().',
    ]);
    const { toolMessages } = await runToolCalls(tools, [{ name: "ping", arguments: {} }]);
    expect(toolMessages[0]!.content).toBe("pong");
  });
});
