// Every tool message entering the history obeys messageLimits.maxMessageBytes: a text result over
// it goes back to the model as the tool's error (as parts over the limits already did), never stored whole.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { ToolMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";

function agentWith(execute: () => unknown, maxMessageBytes: number) {
  const model = new MockLanguageModel({
    responses: [{ toolCalls: [{ id: "c1", name: "dump", arguments: {} }] }, { text: "Noted." }],
  });
  const store = new InMemoryStore();
  const agent = new Agent({
    model,
    memoryStore: store,
    sessionId: "s",
    messageLimits: { maxMessageBytes },
    tools: { dump: tool({ description: "Dumps", parameters: z.object({}), execute: async () => execute() }) },
  });
  return { agent, model, store };
}

describe("tool results and maxMessageBytes", () => {
  it("gives the model an error for a text result over the limit, and stores only that error", async () => {
    const { agent, model, store } = agentWith(() => "x".repeat(5000), 1000);
    const results: { isError: boolean }[] = [];
    agent.on("tool:result", (event) => results.push(event));
    const result = await agent.run("Dump the log");
    expect(result.toolResults[0]).toMatchObject({ isError: true });
    expect(results[0]).toMatchObject({ isError: true });
    const expected =
      'Error: Tool "dump" returned content that cannot be sent: the result is 5000 bytes, over the message limit of 1000 bytes (maxMessageBytes).';
    expect((model.calls[1]!.messages.at(-1) as ToolMessage).content).toBe(expected);
    const stored = (await store.getMessages("s")).filter((message) => message.role === "tool");
    expect(stored.map((message) => message.content)).toEqual([expected]);
  });

  it("counts UTF-8 bytes of the result's JSON: at the limit it is kept, one byte over it is refused", async () => {
    const value = { note: "é".repeat(100) }; // {"note":"…"} is 11 + 200 bytes
    const kept = agentWith(() => value, 211);
    await kept.agent.run("Dump");
    expect((kept.model.calls[1]!.messages.at(-1) as ToolMessage).content).toBe(JSON.stringify(value));
    const refused = agentWith(() => value, 210);
    await refused.agent.run("Dump");
    expect((refused.model.calls[1]!.messages.at(-1) as ToolMessage).content).toMatch(
      /the result is 211 bytes, over the message limit of 210 bytes/,
    );
  });
});
