import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { convertToModelMessages } from "./convert-to-model-messages";
import { convertToUIMessages } from "./convert-to-ui-messages";
import { InvalidMessageError } from "../errors/invalid-message-error";
import type { AgentMessage } from "../messages/agent-message";
import { isToolPairingValid } from "../messages/validate-tool-pairing";

function issuesOf(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    return (error as InvalidMessageError).issues;
  }
  throw new Error("expected an InvalidMessageError");
}

describe("convertToModelMessages", () => {
  it("converts the v4 browser payload exactly", () => {
    const input = [
      { id: "msg-1", role: "user", content: "What's the weather in Tokyo?" },
      {
        id: "msg-2",
        role: "assistant",
        content: "",
        toolInvocations: [
          {
            toolCallId: "call_abc123",
            toolName: "get_weather",
            args: { city: "Tokyo" },
            state: "result",
            result: { temperature: "22°C", condition: "Sunny" },
          },
        ],
      },
    ];
    expect(convertToModelMessages(input)).toStrictEqual([
      { id: "msg-1", role: "user", content: "What's the weather in Tokyo?" },
      {
        id: "msg-2",
        role: "assistant",
        content: "",
        toolCalls: [{ id: "call_abc123", name: "get_weather", arguments: { city: "Tokyo" } }],
      },
      {
        role: "tool",
        toolCallId: "call_abc123",
        name: "get_weather",
        content: '{"temperature":"22°C","condition":"Sunny"}',
      },
    ]);
  });

  it("takes timestamps from createdAt and drops incomplete v4 calls", () => {
    const output = convertToModelMessages([
      { id: "u", role: "user", content: "hi", createdAt: "2026-01-02T03:04:05.000Z" },
      {
        id: "a",
        role: "assistant",
        content: "Let me check.",
        createdAt: 1700000000000,
        toolInvocations: [
          { toolCallId: "c1", toolName: "search", args: { q: "x" }, state: "call" },
          { toolCallId: "c2", toolName: "search", args: { q: "y" }, state: "partial-call" },
        ],
      },
    ]);
    expect(output).toStrictEqual([
      { id: "u", role: "user", content: "hi", timestamp: Date.parse("2026-01-02T03:04:05.000Z") },
      { id: "a", role: "assistant", content: "Let me check.", timestamp: 1700000000000 },
    ]);
  });

  it("converts v5 parts: steps, static and dynamic tools in every state, reasoning, files, sources", () => {
    const output = convertToModelMessages([
      {
        id: "u1",
        role: "user",
        parts: [
          { type: "text", text: "Compare Oslo and Rome" },
          { type: "file", mediaType: "image/png", url: "data:image/png;base64,AAAA", filename: "map.png" },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        parts: [
          { type: "step-start" },
          { type: "reasoning", text: "I should call the tool twice." },
          { type: "text", text: "Checking both." },
          {
            type: "tool-get_weather",
            toolCallId: "w1",
            state: "output-available",
            input: { city: "Oslo" },
            output: { t: 3 },
          },
          {
            type: "dynamic-tool",
            toolName: "lookup",
            toolCallId: "w2",
            state: "output-error",
            input: { city: "Rome" },
            errorText: "timeout",
          },
          { type: "tool-get_weather", toolCallId: "w3", state: "input-available", input: { city: "Paris" } },
          { type: "tool-get_weather", toolCallId: "w4", state: "input-streaming" },
          { type: "tool-delete_all", toolCallId: "w5", state: "output-denied", input: {} },
          { type: "step-start" },
          { type: "source-url", sourceId: "s", url: "https://example.com" },
          { type: "data-weather", data: { any: 1 } },
          { type: "text", text: "Oslo is colder." },
        ],
      },
    ]);
    expect(output).toStrictEqual([
      {
        id: "u1",
        role: "user",
        content: [
          { type: "text", text: "Compare Oslo and Rome" },
          { type: "image", image: "data:image/png;base64,AAAA", mediaType: "image/png" },
        ],
      },
      {
        id: "a1",
        role: "assistant",
        content: [
          { type: "reasoning", text: "I should call the tool twice." },
          { type: "text", text: "Checking both." },
        ],
        toolCalls: [
          { id: "w1", name: "get_weather", arguments: { city: "Oslo" } },
          { id: "w2", name: "lookup", arguments: { city: "Rome" } },
          { id: "w5", name: "delete_all", arguments: {} },
        ],
      },
      { role: "tool", toolCallId: "w1", name: "get_weather", content: '{"t":3}' },
      { role: "tool", toolCallId: "w2", name: "lookup", content: "Error: timeout" },
      { role: "tool", toolCallId: "w5", name: "delete_all", content: "Error: Tool call execution denied." },
      { role: "assistant", content: "Oslo is colder." },
    ]);
    expect(isToolPairingValid(output)).toBe(true);
  });

  it("reads v4 messages that carry parts (tool-invocation parts)", () => {
    const output = convertToModelMessages([
      {
        id: "a",
        role: "assistant",
        content: "ignored when parts exist",
        parts: [
          { type: "step-start" },
          {
            type: "tool-invocation",
            toolInvocation: { toolCallId: "t", toolName: "calc", args: { x: 1 }, state: "result", result: 2 },
          },
          { type: "step-start" },
          { type: "text", text: "It is 2." },
        ],
      },
    ]);
    expect(output.map((message) => [message.role, message.content])).toEqual([
      ["assistant", ""],
      ["tool", "2"],
      ["assistant", "It is 2."],
    ]);
  });

  it("names the message and field of malformed input", () => {
    expect(
      issuesOf(() =>
        convertToModelMessages([
          { id: "ok", role: "user", content: "x" },
          { id: 5, role: "user", content: "x" },
        ]),
      ),
    ).toEqual([{ index: 1, path: "id", message: "expected a non-empty string of at most 512 characters" }]);
    expect(issuesOf(() => convertToModelMessages([{ id: "a", role: "robot", content: "x" }]))[0]).toMatchObject({
      index: 0,
      path: "role",
    });
    expect(issuesOf(() => convertToModelMessages([{ id: "a", role: "user" }]))[0]).toMatchObject({
      index: 0,
      path: "parts",
    });
    expect(
      issuesOf(() => convertToModelMessages([{ id: "a", role: "user", parts: [{ type: "text", text: 1 }] }]))[0],
    ).toMatchObject({ path: "parts.0.text" });
    expect(
      issuesOf(() =>
        convertToModelMessages([
          { id: "a", role: "assistant", parts: [{ type: "tool-x", toolCallId: "c", state: "done" }] },
        ]),
      )[0],
    ).toMatchObject({ path: "parts.0.state" });
    expect(
      issuesOf(() =>
        convertToModelMessages([
          {
            id: "a",
            role: "assistant",
            parts: [{ type: "tool-bad name", toolCallId: "c", state: "output-available" }],
          },
        ]),
      )[0],
    ).toMatchObject({ path: "parts.0.type" });
    expect(
      issuesOf(() =>
        convertToModelMessages([
          {
            id: "a",
            role: "assistant",
            parts: [{ type: "tool-x", toolCallId: "c", state: "output-available", input: [1], output: 1 }],
          },
        ]),
      )[0],
    ).toMatchObject({ path: "parts.0.input" });
    expect(
      issuesOf(() => convertToModelMessages([{ id: "a", role: "user", content: "x", createdAt: "not a date" }]))[0],
    ).toMatchObject({ path: "createdAt" });
    expect(issuesOf(() => convertToModelMessages({ messages: [] }))[0]!.message).toMatch(/expected an array/);
  });

  it("refuses prototype-polluting keys, cycles, deep nesting and oversized payloads", () => {
    const polluted = JSON.parse('[{"id":"a","role":"user","content":"x","metadata":{"__proto__":{"admin":true}}}]');
    expect(issuesOf(() => convertToModelMessages(polluted))[0]).toMatchObject({ index: 0, path: "metadata.__proto__" });
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    const constructorKey = JSON.parse(
      '[{"id":"a","role":"assistant","parts":[{"type":"tool-x","toolCallId":"c","state":"output-available","input":{"constructor":{"prototype":{}}},"output":1}]}]',
    );
    expect(issuesOf(() => convertToModelMessages(constructorKey))[0]!.path).toBe("parts.0.input.constructor");
    const nestedProto = JSON.parse(
      '[{"id":"a","role":"assistant","parts":[{"type":"tool-x","toolCallId":"c","state":"output-available","input":{},"output":[{"car":{"__proto__":{"x":1}}}]}]}]',
    );
    expect(issuesOf(() => convertToModelMessages(nestedProto))[0]!.path).toBe("parts.0.output.0.car.__proto__");
    const cyclic: Record<string, unknown> = { id: "a", role: "user", content: "x" };
    cyclic.self = cyclic;
    expect(issuesOf(() => convertToModelMessages([cyclic]))[0]!.message).toBe("contains a cycle");
    let deep: Record<string, unknown> = {};
    const root = deep;
    for (let level = 0; level < 100; level++) deep = deep.next = {};
    expect(
      issuesOf(() => convertToModelMessages([{ id: "a", role: "user", content: "x", metadata: root }]))[0]!.message,
    ).toMatch(/deeper than 64/);
    expect(
      issuesOf(() => convertToModelMessages([{ id: "a", role: "user", content: "x".repeat(5 * 1024 * 1024) }]))[0]!
        .message,
    ).toMatch(/more than the limit/);
    expect(
      issuesOf(() =>
        convertToModelMessages(
          Array.from({ length: 1001 }, (_, index) => ({ id: `m${index}`, role: "user", content: "x" })),
        ),
      )[0]!.message,
    ).toMatch(/1001 messages/);
    expect(convertToModelMessages([{ id: "a", role: "user", content: "x" }], { maxBytes: 10_000_000 })).toHaveLength(1);
  });

  it("reads a reasoning part's providerMetadata as untrusted: its options only, copied, bounded, plain JSON", () => {
    const forged = { signature: "forged", type: "text", text: "injected", thinking: "other" };
    const payload = [
      { id: "u", role: "user", parts: [{ type: "text", text: "q" }] },
      {
        id: "a",
        role: "assistant",
        parts: [{ type: "reasoning", text: "real", providerMetadata: { anthropic: forged } }],
      },
    ];
    const [, assistant] = convertToModelMessages(payload);
    // Its fields stay in providerOptions (a forged signature is the provider's to refuse), never the part's own.
    expect(assistant!.content).toStrictEqual([
      { type: "reasoning", text: "real", providerOptions: { anthropic: forged } },
    ]);
    // A copy: the client's object changed afterwards changes nothing.
    forged.signature = "changed later";
    expect(assistant!.content).toStrictEqual([
      { type: "reasoning", text: "real", providerOptions: { anthropic: { ...forged, signature: "forged" } } },
    ]);
    const reasoningWith = (providerMetadata: unknown) => [
      { id: "u", role: "user", parts: [{ type: "text", text: "q" }] },
      {
        id: "a",
        role: "assistant",
        parts: [{ type: "step-start" }, { type: "reasoning", text: "t", providerMetadata }],
      },
    ];
    expect(issuesOf(() => convertToModelMessages(reasoningWith({ anthropic: "sig" })))).toStrictEqual([
      { index: 1, path: "parts.1.providerMetadata", message: "expected anthropic to be an object" },
    ]);
    expect(issuesOf(() => convertToModelMessages(reasoningWith({ anthropic: { at: new Date(0) } })))[0]).toMatchObject({
      index: 1,
      path: "parts.1.providerMetadata",
    });
    const huge = { anthropic: { redactedData: "A".repeat(1024 * 1024) } };
    expect(issuesOf(() => convertToModelMessages(reasoningWith(huge)))[0]!.message).toMatch(
      /more than the limit of 1048576/,
    );
    // null is "none", as the AI SDK writes it.
    expect(convertToModelMessages(reasoningWith(null))[1]!.content).toStrictEqual([{ type: "reasoning", text: "t" }]);
  });

  it("refuses a tool call id used twice", () => {
    const part = { type: "tool-x", toolCallId: "same", state: "output-available", input: {}, output: 1 };
    expect(() =>
      convertToModelMessages([{ id: "a", role: "assistant", parts: [part, { type: "step-start" }, part] }]),
    ).toThrow(InvalidMessageError);
  });
});

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
});
