// Messages with content parts for the store conformance suite: every part type, bytes, data: URLs,
// URLs, reasoning with provider options, a tool result with an image, an assistant message's
// metadata (docs/messages.md).
import type { AgentMessage } from "../messages/agent-message";
import { expect } from "./vitest-api";

/** A 1×1 PNG, its bytes: every byte value a store could mangle is not here, so `allBytes` adds them. */
const PNG_1X1 = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

/** Every byte value, twice, and bytes that are not valid UTF-8: a store that keeps text loses them. */
function allBytes(): Uint8Array {
  const bytes = new Uint8Array(512 + 3);
  for (let index = 0; index < 512; index++) bytes[index] = index % 256;
  bytes.set([0xc3, 0x28, 0xff], 512);
  return bytes;
}

/** A fresh copy of the rich conversation (fresh bytes and URLs each call). */
export function richMessages(): AgentMessage[] {
  return [
    {
      id: "rich-u1",
      role: "user",
      content: [
        { type: "text", text: "What is in this picture? 🙂" },
        { type: "image", image: new Uint8Array(PNG_1X1), mediaType: "image/png" },
        {
          type: "image",
          image:
            "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
        },
        { type: "image", image: new URL("https://example.com/cat.png?size=large#top") },
        { type: "file", data: allBytes(), mediaType: "application/octet-stream", filename: "raw.bin" },
        { type: "file", data: "JVBERi0xLjQK", mediaType: "application/pdf", filename: "report ü.pdf" },
        { type: "file", data: new URL("https://example.com/doc.pdf"), mediaType: "application/pdf" },
      ],
      timestamp: 1_700_000_000_000,
    },
    {
      id: "rich-a1",
      role: "assistant",
      content: [
        {
          type: "reasoning",
          text: "The user wants a description.",
          providerOptions: { anthropic: { signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" } },
        },
        { type: "reasoning", text: "", providerOptions: { anthropic: { redactedData: "EmwKAhgBEgy3va3pzix" } } },
        { type: "text", text: "Let me look closer." },
      ],
      toolCalls: [{ id: "rich-call-1", name: "zoom", arguments: { factor: 2 } }],
      timestamp: 1_700_000_000_001,
    },
    {
      id: "rich-t1",
      role: "tool",
      toolCallId: "rich-call-1",
      name: "zoom",
      content: [
        { type: "text", text: "Zoomed:" },
        { type: "image", image: new Uint8Array(PNG_1X1), mediaType: "image/png" },
      ],
      timestamp: 1_700_000_000_002,
    },
    {
      id: "rich-a2",
      role: "assistant",
      content: "A single pixel.",
      // Message metadata (docs/messages.md): agentcore's fields and the app's JSON, kept as given.
      metadata: {
        agentcore: {
          provider: "openai",
          modelId: "gpt-4o",
          usage: { inputTokens: 120, outputTokens: 40, totalTokens: 160, cachedInputTokens: 64, reasoningTokens: 12 },
          finishReason: "stop",
          durationMs: 812,
        },
        plan: "pro",
        trace: { spans: [1, 2.5, -3], note: "ü 🙂", empty: {}, none: null, flag: false },
      },
      timestamp: 1_700_000_000_003,
    },
  ];
}

/**
 * Asserts that `read` is `expected` part for part: equal values, and bytes back as a `Uint8Array`
 * with the same bytes, URLs back as a `URL` with the same href (a JSON round trip gives neither).
 */
export function expectSameRichMessages(read: readonly AgentMessage[], expected: readonly AgentMessage[]): void {
  expect(read.length).toBe(expected.length);
  read.forEach((message, index) => {
    const want = expected[index]!;
    const got = message.content;
    if (typeof want.content === "string") {
      expect(message).toEqual(want);
      return;
    }
    expect(Array.isArray(got), `message ${index}: content parts came back as ${typeof got}`).toBe(true);
    const parts = got as unknown as Record<string, unknown>[];
    const wanted = want.content as unknown as Record<string, unknown>[];
    expect(parts.length).toBe(wanted.length);
    wanted.forEach((part, partIndex) => {
      const where = `message ${index} part ${partIndex} (${String(part.type)})`;
      for (const [key, value] of Object.entries(part)) {
        const actual = parts[partIndex]![key];
        if (value instanceof Uint8Array) {
          expect(Object.prototype.toString.call(actual), `${where}.${key}: bytes must come back as a Uint8Array`).toBe(
            "[object Uint8Array]",
          );
          expect(Array.from(actual as Uint8Array), `${where}.${key}: bytes changed`).toEqual(Array.from(value));
        } else if (value instanceof URL) {
          expect(Object.prototype.toString.call(actual), `${where}.${key}: a URL must come back as a URL`).toBe(
            "[object URL]",
          );
          expect((actual as URL).href).toBe(value.href);
        } else {
          expect(actual, `${where}.${key}`).toEqual(value);
        }
      }
      expect(Object.keys(parts[partIndex]!).sort(), `${where}: fields`).toEqual(Object.keys(part).sort());
    });
    const { content: _got, ...rest } = message;
    const { content: _want, ...wantRest } = want;
    expect(rest).toEqual(wantRest);
  });
}
