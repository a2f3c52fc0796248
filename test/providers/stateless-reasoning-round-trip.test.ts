import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { streamText } from "../../src/streaming/stream-text";
import { tool } from "../../src/tools/tool";
import { convertToModelMessages } from "../../src/ui/convert-to-model-messages";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import { PageChat } from "../helpers/use-chat";
import { anthropicStream } from "../servers/wire-formats";

// Extended thinking through a stateless route (streamText without a sessionId: the page sends the
// whole conversation back) driven by the AI SDK's own chat class, against the loopback server
// speaking Anthropic's SSE, read by the real @anthropic-ai/sdk. The signature streams in
// signature_delta pieces; the UI stream gives it to useChat on reasoning-end; the next request
// sends the thinking block back signed, as a stored session would.

startFakeLlmServerPerTest();

const thought = "The user wants the weather in Paris; call get_weather with the city.";
// Signatures are base64 of a few hundred bytes: streamed in 10-character signature_delta pieces.
const signature = `EqQBCkgIARABGAIiQL2Zg+/${"q8/Tz+W1x0".repeat(30)}Ab==`;
const redactedData = `EmwKAhgBEgy3va3pzix/${"Zm9vYmFy+/".repeat(20)}==`;
const finalThought = "Sunny, 24°C: say it.";
const finalSignature = "Eu8BCkYIBRgCKkDq+/second==";

const tools = {
  get_weather: tool({
    description: "The weather in a city",
    parameters: z.object({ city: z.string() }),
    execute: async ({ city }) => `Sunny, 24°C in ${city}`,
  }),
};

/** The README's route, stateless (no sessionId) or on a stored session. */
function route(stored?: { store: InMemoryStore; sessionId: string }) {
  const model = createAnthropic({ apiKey: "test-key", baseURL: server.url })("claude-sonnet-4-5");
  return async (request: Request): Promise<Response> => {
    const body = (await request.json()) as { messages: UIMessage[] };
    const result = streamText({
      model,
      tools,
      maxSteps: 3,
      messages: convertToModelMessages(body.messages),
      ...(stored ? { memoryStore: stored.store, sessionId: stored.sessionId } : {}),
    });
    return result.toUIMessageStreamResponse({ onError: (error) => String(error) });
  };
}

/** A tool loop with thinking (signed and redacted), then a follow-up question, through the page. */
async function conversation(page: PageChat) {
  server.enqueue(
    anthropicStream({
      thinking: [{ thinking: thought, signature }, { redactedData }],
      toolCalls: [{ id: "toolu_01", name: "get_weather", arguments: { city: "Paris" } }],
    }),
    anthropicStream({ thinking: [{ thinking: finalThought, signature: finalSignature }], text: "Sunny, 24°C." }),
    anthropicStream({ text: "Also sunny tomorrow." }),
  );
  await page.sendMessage({ text: "Weather in Paris?" });
  expect(page.error).toBeUndefined();
  await page.sendMessage({ text: "And tomorrow?" });
  expect(page.error).toBeUndefined();
  expect(server.requests).toHaveLength(3);
  return server.requests.map((request) => request.body as { messages: { role: string; content: unknown }[] });
}

/** The request's thinking and redacted_thinking blocks, as the JSON text they were sent as. */
function thinkingBlocks(body: { messages: { role: string; content: unknown }[] }): string[] {
  return body.messages.flatMap((message) =>
    Array.isArray(message.content)
      ? (message.content as { type: string }[])
          .filter((block) => block.type === "thinking" || block.type === "redacted_thinking")
          .map((block) => JSON.stringify(block))
      : [],
  );
}

describe("signed thinking survives a stateless useChat round trip", () => {
  it("useChat keeps each block's signature and the next request sends the blocks back byte-identical", async () => {
    const page = new PageChat(route());
    const [, loop, followUp] = await conversation(page);

    // useChat's message holds the metadata the UI stream gave on reasoning-end.
    const reasoning = page.messages[1]!.parts.filter((part) => part.type === "reasoning");
    expect(reasoning).toEqual([
      expect.objectContaining({ text: thought, state: "done", providerMetadata: { anthropic: { signature } } }),
      expect.objectContaining({ text: "", state: "done", providerMetadata: { anthropic: { redactedData } } }),
      expect.objectContaining({
        text: finalThought,
        state: "done",
        providerMetadata: { anthropic: { signature: finalSignature } },
      }),
    ]);

    // The first response's blocks, as the API gave them (assembled from its deltas).
    const first = [
      JSON.stringify({ type: "thinking", thinking: thought, signature }),
      JSON.stringify({ type: "redacted_thinking", data: redactedData }),
    ];
    const last = JSON.stringify({ type: "thinking", thinking: finalThought, signature: finalSignature });
    // Within the request (the server's own tool loop) and in the next one (from the browser's copy).
    expect(thinkingBlocks(loop!)).toStrictEqual(first);
    expect(thinkingBlocks(followUp!)).toStrictEqual([...first, last]);
    // The tool loop's assistant turn starts with the signed blocks, before its tool_use, as the API requires.
    const toolTurn = followUp!.messages[1]!;
    expect(toolTurn.role).toBe("assistant");
    expect((toolTurn.content as { type: string }[]).map((block) => block.type)).toEqual([
      "thinking",
      "redacted_thinking",
      "tool_use",
    ]);
  });

  it("gives the model the same request as a stored session does", async () => {
    const stateless = await conversation(new PageChat(route()));
    server.requests.length = 0;
    const store = new InMemoryStore();
    const stored = await conversation(new PageChat(route({ store, sessionId: "user-42" })));
    expect(stateless[2]).toStrictEqual(stored[2]);
    expect(thinkingBlocks(stored[2]!)).toHaveLength(3);
  });

  it("sends a forged signature where the signature goes and nowhere else (the API refuses it)", async () => {
    server.enqueue(anthropicStream({ text: "ok" }));
    const messages: UIMessage[] = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          {
            type: "reasoning",
            text: "what the page shows",
            providerMetadata: {
              anthropic: { signature: "forged", type: "text", text: "injected", thinking: "other", cache_control: {} },
            },
          },
          { type: "text", text: "Hello." },
        ],
      },
      { id: "u2", role: "user", parts: [{ type: "text", text: "Again" }] },
    ];
    const response = await route()(
      new Request("http://localhost/api/chat", { method: "POST", body: JSON.stringify({ messages }) }),
    );
    await response.text();
    expect(thinkingBlocks(server.requests[0]!.body)).toStrictEqual([
      JSON.stringify({ type: "thinking", thinking: "what the page shows", signature: "forged" }),
    ]);
  });
});
