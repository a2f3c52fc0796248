/**
 * Any AI SDK provider as an agentcore model: pass the model object of an AI SDK provider package
 * (@ai-sdk/openai, @ai-sdk/google, @ai-sdk/mistral, @ai-sdk/anthropic, ...) as `model`, and it
 * gets agentcore's memory, tools and stores like a built-in provider.
 *
 *   npx tsx examples/ai-sdk-provider.ts           # offline: @ai-sdk/openai against a loopback server started here
 *   OPENAI_API_KEY=sk-... npx tsx examples/ai-sdk-provider.ts --live
 *
 * Needs `npm install @ai-sdk/openai` (or the provider package you use); agentcore itself never
 * imports `ai` or `@ai-sdk/*`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenAI } from "@ai-sdk/openai";
import { z } from "zod";
import { Agent, InMemoryStore, tool } from "agentcore";

const live = process.argv.includes("--live");
const server = live ? undefined : await startFakeResponsesServer();
const openai = live ? createOpenAI() : createOpenAI({ apiKey: "sk-offline", baseURL: `${server!.url}/v1` });

const store = new InMemoryStore();
const agent = new Agent({
  model: openai("gpt-4o-mini"), // the Responses API; openai.chat("gpt-4o-mini") for Chat Completions
  systemPrompt: "You are a concise travel assistant. Use tools for the weather.",
  memoryStore: store,
  sessionId: "trip-planning",
  tools: {
    get_weather: tool({
      description: "Current weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, temperature: "19°C", sky: "sunny" }),
    }),
  },
});

const first = await agent.run("What's the weather in Lisbon?");
console.log("assistant:", first.text);
console.log("tool calls:", first.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})`).join(", "));
console.log("usage:", first.usage);

const stream = agent.stream("And should I pack a jacket?");
process.stdout.write("assistant (streamed): ");
for await (const delta of stream.textStream) process.stdout.write(delta);
process.stdout.write("\n");

// The whole conversation, tool call and result paired, is in the store for the next run.
console.log("stored:", (await store.getMessages("trip-planning")).map((message) => message.role).join(" → "));
server?.close();

/**
 * A stand-in for api.openai.com speaking just enough of the Responses API (JSON and SSE): it asks
 * for the weather tool once, then answers from what the conversation holds.
 */
async function startFakeResponsesServer() {
  const httpServer = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as { input: { type?: string; role?: string; output?: string }[]; stream?: boolean };
    const toolOutput = body.input.findLast((item) => item.type === "function_call_output")?.output;
    const turns = body.input.filter((item) => item.role === "user").length;
    const usage = { input_tokens: 40 * turns, output_tokens: 12, total_tokens: 40 * turns + 12 };
    const output =
      turns === 1 && !toolOutput
        ? [
            {
              type: "function_call",
              id: "fc_1",
              call_id: "call_1",
              name: "get_weather",
              arguments: '{"city":"Lisbon"}',
              status: "completed",
            },
          ]
        : [
            {
              type: "message",
              id: "msg_1",
              role: "assistant",
              status: "completed",
              content: [{ type: "output_text", text: answer(turns, toolOutput), annotations: [] }],
            },
          ];
    const done = {
      id: "resp_1",
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      model: "gpt-4o-mini",
      output,
      usage,
    };
    if (!body.stream) {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(done));
      return;
    }
    response.writeHead(200, { "content-type": "text/event-stream" });
    const send = (type: string, data: object) =>
      response.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("response.created", { response: { ...done, status: "in_progress", output: [], usage: null } });
    const message = output[0] as { id: string; content?: { text: string }[] };
    send("response.output_item.added", { output_index: 0, item: { ...message, content: [] } });
    for (const word of message.content![0]!.text.split(/(?<= )/))
      send("response.output_text.delta", { item_id: message.id, output_index: 0, content_index: 0, delta: word });
    send("response.output_item.done", { output_index: 0, item: message });
    send("response.completed", { response: done });
    response.end();
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, close: () => httpServer.close() };
}

function answer(turns: number, toolOutput: string | undefined): string {
  const weather = toolOutput ? (JSON.parse(toolOutput) as { temperature: string; sky: string }) : undefined;
  return turns === 1
    ? `Lisbon is ${weather?.temperature}, ${weather?.sky}.`
    : `At ${weather?.temperature} a light jacket for the evening is enough.`;
}
