import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import { FullMemory } from "../strategies/full-memory";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function agentWith(execute: () => unknown, options: { maxToolResultLength?: number } = {}) {
  const model = new MockLanguageModel({
    responses: [{ toolCalls: [{ id: "c1", name: "look", arguments: {} }] }, { text: "Seen." }],
  });
  const store = new InMemoryStore();
  const agent = new Agent({
    model,
    memoryStore: store,
    sessionId: "s",
    maxSteps: 2,
    memory: new FullMemory(options.maxToolResultLength ? { maxToolResultLength: options.maxToolResultLength } : {}),
    tools: { look: tool({ description: "Looks", parameters: z.object({}), execute: async () => execute() }) },
  });
  return { agent, model, store };
}

describe("a tool that returns parts", () => {
  it("keeps them as parts in the tool message the model gets and the store keeps", async () => {
    const { agent, model, store } = agentWith(() => ({ type: "image", image: png, mediaType: "image/png" }));
    const result = await agent.run("What do you see?");
    expect(result.toolResults[0]).toMatchObject({ isError: false });
    const sent = model.calls[1]!.messages.at(-1) as ToolMessage;
    expect(sent).toMatchObject({
      role: "tool",
      toolCallId: "c1",
      content: [{ type: "image", mediaType: "image/png" }],
    });
    const stored = (await store.getMessages("s"))[2] as ToolMessage;
    const image = (stored.content as { image: Uint8Array }[])[0]!.image;
    expect(Array.from(image)).toEqual(Array.from(png));
  });

  it("cuts the text parts to maxToolResultLength and never the image bytes", async () => {
    const long = "x".repeat(1000);
    const { agent, model, store } = agentWith(
      () => [
        { type: "text", text: long },
        { type: "image", image: png },
      ],
      { maxToolResultLength: 300 },
    );
    await agent.run("Look");
    const sent = model.calls[1]!.messages.at(-1) as ToolMessage;
    const [text, image] = sent.content as unknown as [{ text: string }, { image: Uint8Array }];
    expect(text.text).toMatch(/^x{200}\n\[agentcore: tool result cut, 700 of 1000 characters left out\]\nx{100}$/);
    expect(Array.from(image.image)).toEqual(Array.from(png));
    // The stored message is whole.
    const stored = (await store.getMessages("s"))[2] as ToolMessage;
    expect((stored.content as { text: string }[])[0]!.text).toBe(long);
  });

  it("gives the model an error result for an image it cannot keep, and stores no bad part", async () => {
    const { agent, model, store } = agentWith(() => ({ type: "image", image: "data:image/png;base64,@@@" }));
    const result = await agent.run("Look");
    expect(result.toolResults[0]).toMatchObject({ isError: true });
    const sent = model.calls[1]!.messages.at(-1) as ToolMessage;
    expect(sent.content).toMatch(
      /^Error: Tool "look" returned content that cannot be sent: part 0\.image is a malformed data: URL/,
    );
    expect(typeof (await store.getMessages("s"))[2]!.content).toBe("string");
  });

  it("sends the parts on the UI stream in the AI SDK's content output", async () => {
    const { agent } = agentWith(() => [
      { type: "text", text: "a" },
      { type: "image", image: png, mediaType: "image/png" },
    ]);
    const chunks: unknown[] = [];
    const { toUIMessageChunks } = await import("../streaming/ui-message-stream");
    for await (const chunk of toUIMessageChunks(agent.stream({ input: "Look" }).fullStream)) chunks.push(chunk);
    expect(chunks).toContainEqual({
      type: "tool-output-available",
      toolCallId: "c1",
      output: {
        type: "content",
        value: [
          { type: "text", text: "a" },
          { type: "media", data: Buffer.from(png).toString("base64"), mediaType: "image/png" },
        ],
      },
    });
  });
});
