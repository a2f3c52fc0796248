/**
 * The MCP client's capabilities against the MCP reference server (`server-everything`):
 * a server's document given to a run as context, a prompt template filled in, the server asking
 * the agent's own model for a completion (sampling, within bounds), asking the user a question (elicitation),
 * and reading the directories it may work in (roots).
 *
 *   npm install @modelcontextprotocol/sdk @modelcontextprotocol/server-everything
 *   npx tsx examples/mcp-capabilities.ts
 *
 * With OPENAI_API_KEY set it uses "openai/gpt-4o-mini"; with no API key it runs offline on
 * agentcore's scripted model. The first line of output says which.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Agent, contentText, type LanguageModel } from "agentcore";
import { createMCPClient } from "agentcore/mcp";
import { MockLanguageModel } from "agentcore/testing";

/** The reference server: from node_modules when installed, else fetched by npx. */
function everythingServer() {
  try {
    const manifest = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json");
    return { command: process.execPath, args: [join(dirname(manifest), "dist/index.js"), "stdio"] };
  } catch {
    return { command: "npx", args: ["-y", "@modelcontextprotocol/server-everything", "stdio"] };
  }
}

/** Offline: a model that calls the tool named in the user's message, then reports its result. */
function scriptedModel(): LanguageModel {
  return new MockLanguageModel({
    modelId: "scripted",
    responses: (call) => {
      const last = call.messages.at(-1)!;
      if (call.system?.includes("You are a helpful test server."))
        return { text: "A haiku: tools call, servers ask back.", usage: { inputTokens: 12, outputTokens: 9 } };
      if (last.role === "tool")
        return { text: `The tool said: ${contentText(last.content).replace(/\s+/g, " ").slice(0, 220)}` };
      const text = contentText(last.content);
      if (text.includes("sampling"))
        return { toolCalls: [{ name: "trigger-sampling-request", arguments: { prompt: "a haiku" } }] };
      if (text.includes("roots")) return { toolCalls: [{ name: "get-roots-list", arguments: {} }] };
      if (text.includes("ask me")) return { toolCalls: [{ name: "trigger-elicitation-request", arguments: {} }] };
      return { text: `(scripted) I read ${call.system?.length ?? 0} characters of context.` };
    },
  });
}

const model: string | LanguageModel = process.env.OPENAI_API_KEY ? "openai/gpt-4o-mini" : scriptedModel();
console.log(
  process.env.OPENAI_API_KEY
    ? "OPENAI_API_KEY found: using openai/gpt-4o-mini."
    : "No API key found: running offline on the scripted MockLanguageModel.",
);

const mcp = await createMCPClient({
  transport: { type: "stdio", ...everythingServer(), stderr: "ignore" },
  // The server's sampling requests are answered by the model of the agent calling its tool, within
  // bounds: answers of at most 1,000 tokens, 3 requests per tool call, none while no tool call runs
  // (allowOutsideToolCall), and a look at each request first (return it, rewritten, or { refuse }).
  sampling: {
    maxTokens: 1_000,
    maxRequestsPerToolCall: 3,
    onSampling: (request, { server, toolCall }) => {
      console.log(`  [sampling] ${server} asks, during ${toolCall?.toolName}, for up to ${request.maxTokens} tokens`);
      return request;
    },
  },
  elicitation: async (request) => {
    // A CLI would prompt here; a web app would show a form (docs/mcp.md, "MCP capabilities").
    console.log(`  [elicitation] ${request.server} asks: ${request.message}`);
    return { action: "accept", content: { name: "Ada Lovelace", check: true } };
  },
  roots: [{ uri: "file:///home/ada/project", name: "project" }],
});
try {
  // A server's document as context for a run: read it, put its text in the system prompt.
  const resources = await mcp.resources();
  console.log(`Resources: ${resources.map((resource) => resource.name).join(", ")}`);
  const doc = await mcp.readResource(resources.find((resource) => resource.name === "architecture.md")!.uri);
  const reader = new Agent({ model, systemPrompt: `Answer from this document:\n\n${doc.text}` });
  console.log(`assistant: ${(await reader.run("What is this server made of?")).text}`);

  // A prompt template filled in by the server, run as the user's message.
  const prompt = await mcp.getPrompt("args-prompt", { city: "Lisbon" });
  console.log(`prompt: ${prompt.text}`);

  const agent = new Agent({ model, tools: await mcp.tools(), maxSteps: 3 });
  for (const input of ["Use sampling to write a haiku.", "Which roots can you see?", "Please ask me for my details."]) {
    console.log(`user: ${input}`);
    const result = await agent.run(input);
    // The run's usage counts its own model calls and the tokens its tool calls' sampling spent.
    console.log(`assistant: ${result.text} (${result.usage.totalTokens} tokens)`);
  }

  await mcp.setRoots([{ uri: "file:///home/ada/other", name: "other" }]); // the server is told they changed
} finally {
  await mcp.close();
}
