// convertToUIMessages: a stored turn shown as UI messages, and round trips through
// convertToModelMessages (random histories, provider options useChat cannot hold, tool data keys).
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { convertToModelMessages } from "./convert-to-model-messages";
import { convertToUIMessages } from "./convert-to-ui-messages";
import { parseAgentMessages, type AgentMessage } from "../messages/agent-message";

describe("convertToUIMessages", () => {
  it("shows a stored turn as one assistant UI message with steps and tool parts", () => {
    const history: AgentMessage[] = [
      { id: "u", role: "user", content: "Weather?", timestamp: 1 },
      {
        id: "a1",
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", name: "get_weather", arguments: { city: "Tokyo" } }],
        timestamp: 2,
      },
      { id: "t", role: "tool", toolCallId: "c", name: "get_weather", content: '{"temperature":"22°C"}', timestamp: 3 },
      { id: "a2", role: "assistant", content: "Sunny, 22°C.", timestamp: 4 },
    ];
    expect(convertToUIMessages(history)).toStrictEqual([
      {
        id: "u",
        role: "user",
        parts: [{ type: "text", text: "Weather?" }],
        metadata: { agentcore: { ids: ["u"], timestamps: [1] } },
      },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          {
            type: "tool-get_weather",
            toolCallId: "c",
            state: "output-available",
            input: { city: "Tokyo" },
            output: { temperature: "22°C" },
          },
          { type: "step-start" },
          { type: "text", text: "Sunny, 22°C.", state: "done" },
        ],
        metadata: { agentcore: { ids: ["a1", "t", "a2"], timestamps: [2, 3, 4] } },
      },
    ]);
  });
});

// Random valid histories: turns of a user message, tool steps with parallel calls, a final answer.
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "ünïcödé 🧪", "line\nbreak", '{"looks":"like json"}', "42"),
);
// guardUIPayload refuses __proto__ and an object-valued constructor holding a prototype anywhere
// in a browser's payload, so a history holding them cannot come back through it; the generated
// data leaves out __proto__ and every object-valued constructor.
const forbiddenKey = /"__proto__":|"constructor":\{/;
const toolContent = fc.oneof(
  text,
  fc
    .jsonValue({ maxDepth: 2 })
    .map((value) => JSON.stringify(value) ?? "null")
    .filter((json) => !forbiddenKey.test(json)),
  fc.constantFrom('{"a": 1}', "[1, 2]", "Error: failed"),
);
const historyArbitrary = fc
  .array(
    fc.record({
      user: text,
      steps: fc.array(
        fc.array(
          fc.record({
            name: fc.constantFrom("get_weather", "search", "calc-2"),
            args: fc
              .dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }))
              .filter((args) => !forbiddenKey.test(JSON.stringify(args))),
            content: toolContent,
            stepText: text,
          }),
          { minLength: 1, maxLength: 3 },
        ),
        { maxLength: 3 },
      ),
      answer: fc.option(text, { nil: undefined }),
    }),
    { minLength: 1, maxLength: 8 },
  )
  .map((turns) => {
    let counter = 0;
    const next = () => `id-${++counter}`;
    const messages: AgentMessage[] = [];
    for (const turn of turns) {
      messages.push({ id: next(), role: "user", content: turn.user, timestamp: counter });
      for (const step of turn.steps) {
        const calls = step.map((call) => ({
          id: `call-${++counter}`,
          name: call.name,
          arguments: call.args as Record<string, unknown>,
        }));
        messages.push({
          id: next(),
          role: "assistant",
          content: step[0]!.stepText,
          toolCalls: calls,
          timestamp: counter,
        });
        step.forEach((call, index) =>
          messages.push({
            id: next(),
            role: "tool",
            toolCallId: calls[index]!.id,
            name: call.name,
            content: call.content,
            timestamp: counter,
          }),
        );
      }
      if (turn.answer !== undefined)
        messages.push({ id: next(), role: "assistant", content: turn.answer, timestamp: counter });
    }
    return messages;
  });

describe("round trips", () => {
  it("convertToModelMessages(convertToUIMessages(history)) gives the history back", () => {
    fc.assert(
      fc.property(historyArbitrary, (history) => {
        const ui = convertToUIMessages(history);
        const back = convertToModelMessages(JSON.parse(JSON.stringify(ui)));
        expect(back).toStrictEqual(JSON.parse(JSON.stringify(history)));
      }),
      { numRuns: 300 },
    );
  });

  it("shows provider options useChat cannot hold left out, so the page's copy comes back accepted", () => {
    const history: AgentMessage[] = [
      { id: "u", role: "user", content: "q" },
      {
        id: "a",
        role: "assistant",
        content: [
          { type: "reasoning", text: "t", providerOptions: { anthropic: { signature: "s" }, flat: "not an object" } },
          { type: "text", text: "answer" },
        ],
      },
    ];
    const shown = convertToUIMessages(history);
    expect(shown[1]!.parts).toContainEqual({
      type: "reasoning",
      text: "t",
      providerMetadata: { anthropic: { signature: "s" } },
      state: "done",
    });
    expect(convertToModelMessages(shown)[1]!.content).toStrictEqual([
      { type: "reasoning", text: "t", providerOptions: { anthropic: { signature: "s" } } },
      { type: "text", text: "answer" },
    ]);
  });

  it("brings back tool data with plain constructor and prototype keys (data, not prototype poison)", () => {
    const history: AgentMessage[] = [
      { id: "u", role: "user", content: "Who won in 1961?", timestamp: 1 },
      {
        id: "a",
        role: "assistant",
        content: "",
        toolCalls: [{ id: "c", name: "f1_results", arguments: { year: 1961, constructor: "Ferrari" } }],
        timestamp: 2,
      },
      {
        id: "t",
        role: "tool",
        toolCallId: "c",
        name: "f1_results",
        content: '{"constructor":"Ferrari","prototype":false,"car":{"constructor":{"name":"Scuderia"}}}',
        timestamp: 3,
      },
      { id: "b", role: "assistant", content: "Ferrari.", timestamp: 4 },
    ];
    const back = convertToModelMessages(JSON.parse(JSON.stringify(convertToUIMessages(history))));
    expect(back).toStrictEqual(history);
  });

  it("keeps an image attachment's file name through the stored message, so a reload shows it", () => {
    const sent = [
      {
        id: "u",
        role: "user",
        parts: [
          { type: "file", mediaType: "image/png", url: "data:image/png;base64,iVBORw0KGgo=", filename: "cat.png" },
          { type: "text", text: "Look" },
        ],
      },
    ];
    // As a store writes the message and reads it back: JSON, parsed at the boundary.
    const stored = parseAgentMessages(JSON.parse(JSON.stringify(convertToModelMessages(sent))), { stored: true });
    expect(stored[0]!.content).toEqual([
      { type: "image", image: "data:image/png;base64,iVBORw0KGgo=", mediaType: "image/png", filename: "cat.png" },
      { type: "text", text: "Look" },
    ]);
    expect(convertToUIMessages(stored)[0]!.parts[0]).toEqual({
      type: "file",
      mediaType: "image/png",
      url: "data:image/png;base64,iVBORw0KGgo=",
      filename: "cat.png",
    });
  });
});
