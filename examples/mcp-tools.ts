/**
 * Tools from an MCP server: the agent calls a tool that a separate process serves over MCP,
 * and the call and its result are stored with the conversation like any other tool's.
 *
 *   npx tsx examples/mcp-tools.ts
 *
 * This one file is both sides: run as is, it starts itself again with `--serve` as a tiny MCP
 * server over stdio (written with the official SDK's McpServer), connects to it with
 * `createMCPClient` and gives its tools to an agent. With OPENAI_API_KEY set it uses
 * "openai/gpt-4o-mini"; with no API key it runs offline on agentcore's scripted model, which
 * plays a model that decides to call the tool. The first line of output says which.
 */
import { Agent, InMemoryStore, contentText, type LanguageModel } from "agentcore";
import { createMCPClient } from "agentcore/mcp";
import { MockLanguageModel } from "agentcore/testing";
import { fileURLToPath } from "node:url";

if (process.argv.includes("--serve")) await serve();
else await main();

/** The MCP server: one tool, `get_forecast`, answering with structured content. */
async function serve(): Promise<void> {
  const { McpServer } = await import("@modelcontextprotocol/sdk/server/mcp.js");
  const { StdioServerTransport } = await import("@modelcontextprotocol/sdk/server/stdio.js");
  const { z } = await import("zod");
  const server = new McpServer({ name: "forecast", version: "1.0.0" });
  server.registerTool(
    "get_forecast",
    {
      description: "Tomorrow's forecast for a city",
      inputSchema: { city: z.string().describe("City name") },
      outputSchema: { city: z.string(), highC: z.number(), conditions: z.string() },
    },
    async ({ city }) => {
      const forecast = { city, highC: 24, conditions: "sunny with a light breeze" };
      return { content: [{ type: "text", text: JSON.stringify(forecast) }], structuredContent: forecast };
    },
  );
  await server.connect(new StdioServerTransport());
}

function chooseModel(): { model: string | LanguageModel; note: string } {
  if (process.env.OPENAI_API_KEY) {
    return { model: "openai/gpt-4o-mini", note: "OPENAI_API_KEY found: using the real model openai/gpt-4o-mini." };
  }
  return {
    model: new MockLanguageModel({
      responses: (call) => {
        const last = call.messages.at(-1);
        // First step: call the MCP tool. Second step: answer from its result.
        if (last?.role !== "tool") return { toolCalls: [{ name: "get_forecast", arguments: { city: "Lisbon" } }] };
        const forecast = JSON.parse(contentText(last.content)) as { city: string; highC: number; conditions: string };
        return { text: `Tomorrow in ${forecast.city}: ${forecast.conditions}, up to ${forecast.highC}°C.` };
      },
    }),
    note: "No API key found: running offline on the scripted MockLanguageModel (set OPENAI_API_KEY to use a real model).",
  };
}

async function main(): Promise<void> {
  const { model, note } = chooseModel();
  console.log(note);

  // The server is this file again, run by the same node (with tsx's loader: process.execArgv).
  const mcp = await createMCPClient({
    transport: {
      type: "stdio",
      command: process.execPath,
      args: [...process.execArgv, fileURLToPath(import.meta.url), "--serve"],
    },
    timeoutMs: 10_000, // a tool call that takes longer reaches the model as a tool error
  });
  try {
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      tools: { ...(await mcp.tools()) },
      memoryStore: store,
      sessionId: "mcp-demo",
      maxSteps: 3,
    });
    agent.on("tool:call", ({ toolCall }) =>
      console.log(`  [tool:call] ${toolCall.name} ${JSON.stringify(toolCall.arguments)} → MCP server "${mcp.name}"`),
    );
    agent.on("tool:result", ({ result, isError }) =>
      console.log(`  [tool:result] ${isError ? "error: " : ""}${JSON.stringify(result)}`),
    );

    console.log("user: What's the weather in Lisbon tomorrow?");
    const result = await agent.run("What's the weather in Lisbon tomorrow?");
    console.log(`assistant: ${result.text}\n`);

    console.log("Stored in the session:");
    for (const message of await store.getMessages("mcp-demo")) {
      const calls =
        message.role === "assistant" && message.toolCalls?.length
          ? ` (calls ${message.toolCalls.map((call) => call.name).join(", ")})`
          : "";
      console.log(
        `  ${message.role}${message.role === "tool" ? ` [${message.name}]` : ""}: ${message.content}${calls}`,
      );
    }
  } finally {
    await mcp.close(); // ends the server process
  }
}
