import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "./agent";
import { tool } from "../tools/tool";
import { InMemoryStore } from "../stores/in-memory-store";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { MockLanguageModel } from "../testing/mock-language-model";
import { uniqueToolCallIds } from "./unique-tool-call-ids";

const echo = tool({
  description: "Echoes its word",
  parameters: z.object({ word: z.string() }),
  execute: async ({ word }) => `echo:${word}`,
});

function shape(messages: readonly AgentMessage[]) {
  return messages.map((message) =>
    message.role === "tool"
      ? { role: "tool", toolCallId: message.toolCallId, content: message.content }
      : message.role === "assistant" && message.toolCalls
        ? { role: "assistant", calls: message.toolCalls.map((call) => call.id) }
        : { role: message.role, content: message.content },
  );
}

describe("tool-call ids the model repeats", () => {
  it("a call id reused on the next turn (`call_0` every time) keeps both real results, each after its call", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ id: "call_0", name: "echo", arguments: { word: "one" } }] },
        { text: "first" },
        { toolCalls: [{ id: "call_0", name: "echo", arguments: { word: "two" } }] },
        { text: "second" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, tools: { echo } });
    await agent.run({ input: "turn one", sessionId: "reuse" });
    await agent.run({ input: "turn two", sessionId: "reuse" });

    const request = model.calls[3]!.messages;
    expect(findToolPairingIssues(request)).toEqual([]);
    expect(shape(request)).toEqual([
      { role: "user", content: "turn one" },
      { role: "assistant", calls: ["call_0"] },
      { role: "tool", toolCallId: "call_0", content: "echo:one" },
      { role: "assistant", content: "first" },
      { role: "user", content: "turn two" },
      { role: "assistant", calls: ["call_0_2"] },
      { role: "tool", toolCallId: "call_0_2", content: "echo:two" },
    ]);
    const stored = (await store.getMessages("reuse")) as AgentMessage[];
    expect(stored).toHaveLength(8);
    expect(findToolPairingIssues(stored)).toEqual([]);
    const ids = stored.flatMap((message) =>
      message.role === "assistant" ? (message.toolCalls ?? []).map((call) => call.id) : [],
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("duplicate call ids within one step: both run, the stored history and the next request are valid", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        {
          toolCalls: [
            { id: "dup", name: "echo", arguments: { word: "a" } },
            { id: "dup", name: "echo", arguments: { word: "b" } },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = new Agent({ model, memoryStore: store, tools: { echo } });
    const result = await agent.run({ input: "go", sessionId: "dup" });
    expect(result.toolResults.map((toolResult) => [toolResult.toolCallId, toolResult.result])).toEqual([
      ["dup", "echo:a"],
      ["dup_2", "echo:b"],
    ]);
    const request = model.calls[1]!.messages;
    expect(findToolPairingIssues(request)).toEqual([]);
    expect(shape(request).slice(1)).toEqual([
      { role: "assistant", calls: ["dup", "dup_2"] },
      { role: "tool", toolCallId: "dup", content: "echo:a" },
      { role: "tool", toolCallId: "dup_2", content: "echo:b" },
    ]);
    const stored = (await store.getMessages("dup")) as AgentMessage[];
    expect(shape(stored)).toEqual([...shape(request), { role: "assistant", content: "done" }]);
    expect(findToolPairingIssues(stored)).toEqual([]);
  });

  it("renames only what collides, with letters, digits, `_` and `-`, skipping names already taken", () => {
    const calls = [
      { id: "a", name: "t", arguments: {} },
      { id: "a", name: "t", arguments: {} },
      { id: "", name: "t", arguments: {} },
      { id: "b", name: "t", arguments: {} },
    ];
    const renamed = uniqueToolCallIds(calls, new Set(["b", "a_2"]));
    expect(renamed.map((call) => call.id).slice(0, 2)).toEqual(["a", "a_3"]);
    expect(renamed[2]!.id).toMatch(/^[a-zA-Z0-9_-]+$/);
    expect(renamed[3]!.id).toBe("b_2");
    expect(renamed[0]).toBe(calls[0]);
  });
});
