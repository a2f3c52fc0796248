// convertToModelMessages on malformed and hostile payloads: typed errors naming the message and field,
// prototype keys, cycles, depth and size limits, untrusted reasoning metadata, duplicate call ids.
import { describe, expect, it } from "vitest";
import { convertToModelMessages } from "./convert-to-model-messages";
import { InvalidMessageError } from "../errors/invalid-message-error";

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

  it("refuses an oversized payload at the value that passes maxBytes: nothing after it is read", () => {
    const url = `data:application/pdf;base64,${"A".repeat(4000)}`;
    const message = (id: string) => ({
      id,
      role: "user",
      parts: [
        { type: "text", text: "read this" },
        { type: "file", mediaType: "application/pdf", url },
      ],
    });
    const payload: unknown[] = [message("m0"), message("m1"), message("m2")];
    let laterReads = 0;
    const probe = (value: unknown) => ({
      enumerable: true,
      get() {
        laterReads++;
        return value;
      },
    });
    // Inside the message that passes the limit, after the part that passes it; and a whole later message.
    Object.defineProperty((payload[2] as { parts: unknown[] }).parts, 2, probe({ type: "text", text: "later" }));
    Object.defineProperty(payload, 3, probe(message("m3")));
    const issues = issuesOf(() => convertToModelMessages(payload, { maxBytes: 10_000 }));
    expect(issues[0]).toMatchObject({ index: 2, path: "parts.1.url" });
    expect(issues[0]!.message).toMatch(/more than the limit of 10000 bytes/);
    expect(laterReads).toBe(0);
    // A sparse array is as long as its JSON (null for every hole): refused, never serialised.
    const sparse = [{ id: "a", role: "user", parts: new Array(1e9) }];
    expect(issuesOf(() => convertToModelMessages(sparse))[0]).toMatchObject({ index: 0 });
  });

  it("counts the payload's size as its JSON: exactly at maxBytes passes, one byte over is refused", () => {
    const payload = [
      { id: "a", role: "user", parts: [{ type: "text", text: 'héllo wörld 👋 "quoted"\n' }], note: undefined },
      { id: "b", role: "assistant", parts: [{ type: "text", text: "ok" }], metadata: { list: [1, true, null] } },
    ];
    const exact = new TextEncoder().encode(JSON.stringify(payload)).length;
    expect(convertToModelMessages(payload, { maxBytes: exact })).toHaveLength(2);
    expect(issuesOf(() => convertToModelMessages(payload, { maxBytes: exact - 1 }))[0]!.message).toBe(
      `the payload is ${exact} bytes, more than the limit of ${exact - 1}`,
    );
  });
});
