import { describe, expect, it } from "vitest";
import { MockLanguageModel } from "./mock-language-model";
import type { LanguageModelStreamPart } from "../models/language-model";

const call = { messages: [{ role: "user" as const, content: "hi" }], tools: [] };

describe("MockLanguageModel", () => {
  it("answers from its script in order and records each call as a copy", async () => {
    const model = new MockLanguageModel({
      responses: [
        { text: "one" },
        { toolCalls: [{ name: "t", arguments: { a: 1 } }], usage: { inputTokens: 3, outputTokens: 4 } },
      ],
    });
    const messages = [{ role: "user" as const, content: "hi" }];
    expect((await model.doGenerate({ messages, tools: [] })).text).toBe("one");
    messages[0]!.content = "changed";
    expect(model.calls[0]!.messages[0]!.content).toBe("hi");
    const second = await model.doGenerate(call);
    expect(second).toMatchObject({
      finishReason: "tool-calls",
      toolCalls: [{ id: "call_mock_1", name: "t", arguments: { a: 1 } }],
      usage: { inputTokens: 3, outputTokens: 4, totalTokens: 7 },
    });
    await expect(model.doGenerate(call)).rejects.toThrow(/2 scripted response\(s\) but received call 3/);
  });

  it("streams text in several deltas and ends with one finish part", async () => {
    const model = new MockLanguageModel({
      responses: [{ text: "abcdefghij", toolCalls: [{ id: "x", name: "t", arguments: {} }] }],
      chunkSize: 3,
    });
    const parts: LanguageModelStreamPart[] = [];
    for await (const part of model.doStream(call)) parts.push(part);
    expect(parts.filter((part) => part.type === "text-delta").map((part) => (part as { delta: string }).delta)).toEqual(
      ["abc", "def", "ghi", "j"],
    );
    expect(parts.at(-2)).toEqual({ type: "tool-call", toolCall: { id: "x", name: "t", arguments: {} } });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-calls" });
    expect(model.calls[0]!.stream).toBe(true);
  });

  it("throws scripted errors and honours aborts", async () => {
    const model = new MockLanguageModel({
      responses: [{ error: new Error("rate limited") }, { text: "slow text", chunkDelayMs: 1 } as never],
    });
    await expect(model.doGenerate(call)).rejects.toThrow("rate limited");
    await expect(model.doGenerate({ ...call, abortSignal: AbortSignal.abort() })).rejects.toThrow();
    expect(() => new MockLanguageModel({} as never)).toThrow(/needs `responses`/);
  });
});
