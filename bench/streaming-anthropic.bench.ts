/**
 * Streaming overhead on Anthropic: agentcore's `agent.stream()` against the raw `@anthropic-ai/sdk`
 * client, both reading the same answer (1k text chunks, then a tool call whose input arrives in
 * `input_json_delta` chunks) from the same loopback server speaking the Messages SSE format;
 * beside them agentcore's Anthropic adapter alone (`model.doStream()`). Same method as
 * bench/streaming.bench.ts (bench/streaming-relay.ts).
 */
import { isDeepStrictEqual } from "node:util";
import { loadavg } from "node:os";
import Anthropic from "@anthropic-ai/sdk";
import { z } from "zod";
import { Agent, InMemoryStore, createAnthropic, tool } from "agentcore";
import { FakeLlmServer } from "../test/servers/fake-llm-server";
import { anthropicStream, anthropicStreamEvents } from "../test/servers/wire-formats";
import { table, type Benchmark } from "./harness";
import { compareRelay, timeStream, type StreamTiming } from "./streaming-relay";

/** anthropicStream cuts the text into 5-character deltas: 5,000 characters = 1,000 text chunks. */
const CHUNKS = 1_000;
const ANSWER = "abcd ".repeat(CHUNKS);
/** A tool call after the text; its input is cut into 7-character `input_json_delta` chunks. */
const CALL = {
  id: "toolu_bench",
  name: "write_note",
  arguments: { title: "A long story", body: "Once upon a time, ".repeat(20) },
};
const SCRIPT = { text: ANSWER, toolCalls: [CALL] };
const MODEL = "claude-sonnet-5-5";
const PROMPT = "Tell me a long story, then note it.";

const writeNote = tool({
  description: "Writes a note",
  parameters: z.object({ title: z.string(), body: z.string() }),
  execute: async () => "noted",
});

function checkArguments(label: string, received: unknown): void {
  if (!isDeepStrictEqual(received, CALL.arguments))
    throw new Error(`${label}: the tool call's input came out as ${JSON.stringify(received)}`);
}

export const benchmark: Benchmark = {
  title: "Streaming overhead on Anthropic: agent.stream() beside the raw @anthropic-ai/sdk client",
  async run({ quick }) {
    const runs = quick ? 3 : 96;
    const server = await FakeLlmServer.start();
    try {
      const raw = new Anthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const provider = createAnthropic({ apiKey: "test", baseURL: server.url, maxRetries: 0 });
      const model = provider(MODEL);
      let session = 0;
      // One step: the call is run (the tool answers at once) and the turn ends, with no second request.
      const agent = new Agent({
        model,
        memoryStore: new InMemoryStore(),
        maxRetries: 0,
        tools: { write_note: writeNote },
        maxSteps: 1,
      });
      const schema = {
        type: "object" as const,
        properties: { title: { type: "string" }, body: { type: "string" } },
        required: ["title", "body"],
      };
      const tools = [{ name: "write_note", description: "Writes a note", input_schema: schema }];

      const labels = {
        raw: "raw `@anthropic-ai/sdk` client (`messages.create`, `stream: true`, input JSON assembled and parsed)",
        adapter: "agentcore's Anthropic adapter alone (`model.doStream()`, no agent)",
        agent: "agentcore `agent.stream()` (`textStream`, then `response`; the tool run, one step)",
      };
      // Each reader's answer is queued before its clock starts.
      const queued = (read: () => Promise<StreamTiming>) => () => {
        server.enqueue(anthropicStream(SCRIPT));
        return read();
      };
      const rows = await compareRelay(
        {
          raw: queued(() =>
            timeStream("raw @anthropic-ai/sdk", ANSWER, async (onText) => {
              const stream = await raw.messages.create({
                model: MODEL,
                max_tokens: 8192,
                messages: [{ role: "user", content: PROMPT }],
                tools,
                stream: true,
              });
              const json = new Map<number, string>();
              let input: unknown;
              for await (const event of stream) {
                if (event.type === "content_block_delta") {
                  if (event.delta.type === "text_delta") onText(event.delta.text);
                  else if (event.delta.type === "input_json_delta")
                    json.set(event.index, (json.get(event.index) ?? "") + event.delta.partial_json);
                } else if (event.type === "content_block_stop" && json.has(event.index)) {
                  input = JSON.parse(json.get(event.index)!);
                }
              }
              checkArguments("raw @anthropic-ai/sdk", input);
            }),
          ),
          adapter: queued(() =>
            timeStream("model.doStream", ANSWER, async (onText) => {
              let input: unknown;
              for await (const part of model.doStream({
                messages: [{ role: "user", content: PROMPT }],
                tools: [{ name: "write_note", description: "Writes a note", parameters: schema }],
              })) {
                if (part.type === "text-delta") onText(part.delta);
                else if (part.type === "tool-call") input = part.toolCall.arguments;
              }
              checkArguments("model.doStream", input);
            }),
          ),
          agent: queued(() =>
            timeStream("agent.stream", ANSWER, async (onText) => {
              // A fresh session per run, so the history (and the request) stays the same size.
              const stream = agent.stream({ input: PROMPT, sessionId: `s${session++}` });
              for await (const delta of stream.textStream) onText(delta);
              const result = await stream.response; // the turn persisted to the store
              checkArguments("agent.stream", result.toolCalls[0]?.arguments);
            }),
          ),
        },
        { runs, warmups: quick ? 1 : 5, labels },
      );
      const events = anthropicStreamEvents(SCRIPT);
      const jsonChunks = events.filter(
        (event) => (event.data as { delta?: { type?: string } }).delta?.type === "input_json_delta",
      ).length;
      return [
        `Load average at the end of this section: ${loadavg()[0]!.toFixed(1)} (the machine is shared with other work; the ratios of runs measured side by side are what count).`,
        "",
        `A ${CHUNKS.toLocaleString("en-US")}-chunk answer (${ANSWER.length.toLocaleString("en-US")} characters in 5-character \`text_delta\`s) followed by one \`tool_use\` block whose ${JSON.stringify(CALL.arguments).length}-character input arrives in ${jsonChunks} \`input_json_delta\`s, in the Messages API's event stream (\`message_start\` with usage, \`content_block_start\`, \`ping\`, \`content_block_delta\`, \`content_block_stop\`, \`message_delta\` with the stop reason and usage, \`message_stop\`: ${events.length.toLocaleString("en-US")} events) from a loopback server with no delay between events, read through the raw \`@anthropic-ai/sdk\` client, through agentcore's Anthropic adapter alone and through \`agent.stream()\` (model \`${MODEL}\` via \`createAnthropic({ apiKey, baseURL })\`, the tool declared, \`maxSteps: 1\`, in-memory store, a fresh session per run; total includes running the tool and persisting the turn). The three are interleaved run by run, the order cycling through the six permutations. Median (p10–p90) of ${runs} runs each after warm-up.`,
        "",
        "The adapter makes the request with the \`@anthropic-ai/sdk\` (auth, retries, HTTP errors; \`asResponse()\`) and reads the event stream with the decoder the OpenAI adapter uses, linear in the body, one event at a time through a plain iterator (the SDK's \`Stream\` passes each event through async generators). Both parse every event's JSON, most of the reading time; the last row is what the agent's run costs around the model call (session, history, the relay of each chunk, running the tool, persisting the turn).",
        "",
        table(["client", "time to first text chunk", "total"], rows),
      ].join("\n");
    } finally {
      await server.close();
    }
  },
};
