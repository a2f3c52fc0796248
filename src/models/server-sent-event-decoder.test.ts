import fc from "fast-check";
import { _iterSSEMessages } from "openai/core/streaming";
import { describe, expect, it } from "vitest";
import { ServerSentEventDecoder } from "./server-sent-event-decoder";

/** Feeds `pieces` to a decoder, reading events after each, and returns every event's data (with its type). */
function decodeAll(pieces: (Uint8Array | string)[]): { event: string | undefined; data: string }[] {
  const decoder = new ServerSentEventDecoder();
  const events: { event: string | undefined; data: string }[] = [];
  const drain = () => {
    for (let data = decoder.next(); data !== undefined; data = decoder.next())
      events.push({ event: decoder.lastEvent, data });
  };
  for (const piece of pieces) {
    decoder.push(piece);
    drain();
  }
  decoder.end();
  drain();
  return events;
}

/** What the `openai` SDK's own parser makes of the same bytes, read in the same pieces. */
async function decodeWithSdk(pieces: Uint8Array[]): Promise<{ event: string | undefined; data: string }[]> {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
  const events: { event: string | undefined; data: string }[] = [];
  for await (const message of _iterSSEMessages(new Response(body), new AbortController()))
    events.push({ event: message.event ?? undefined, data: message.data });
  return events;
}

function split(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  return pieces;
}

describe("ServerSentEventDecoder", () => {
  it("reads data events, joins data lines, skips comments, id and retry, keeps the event type", () => {
    const body =
      ': keep-alive\n\ndata: {"a":1}\n\nevent: delta\nid: 7\nretry: 10\ndata: line one\ndata:line two\n\ndata\n\n';
    expect(decodeAll([body])).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: "delta", data: "line one\nline two" },
      { event: undefined, data: "" },
    ]);
  });

  it("accepts \\r\\n and lone \\r line breaks, a \\r\\n split between two reads, and a BOM", () => {
    expect(
      decodeAll(["\uFEFFdata: a\r\n\r\ndata: b\r", "\n\r\ndata: c\r\rdata: d\n\n"]).map((event) => event.data),
    ).toEqual(["a", "b", "c", "d"]);
  });

  it("waits for the blank line: an event cut off by the end of the body is dropped", () => {
    const decoder = new ServerSentEventDecoder();
    decoder.push("data: one\n\ndata: two\n");
    expect(decoder.next()).toBe("one");
    expect(decoder.next()).toBeUndefined();
    decoder.push("data: more");
    decoder.end();
    expect(decoder.next()).toBeUndefined();
  });

  it("keeps a character whose bytes are split between reads", () => {
    const bytes = new TextEncoder().encode("data: héllo 👋 wörld\n\n");
    expect(decodeAll(split(bytes, [8, 13, 14, 15]))).toEqual([{ event: undefined, data: "héllo 👋 wörld" }]);
  });

  it("gives the same events as the openai SDK's parser, however the bytes are cut", async () => {
    const line = fc
      .oneof(
        fc.string({ unit: fc.constantFrom("a", " ", ":", "{", '"', "é", "👋", "\u2028"), maxLength: 12 }),
        fc.string({ unit: "binary", maxLength: 12 }),
      )
      .filter((text) => !/[\r\n]/.test(text));
    const event = fc.record({
      comment: fc.option(line, { nil: undefined }),
      type: fc.option(
        line.filter((text) => text.length > 0),
        { nil: undefined },
      ),
      data: fc.array(line, { minLength: 1, maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 6 }),
        fc.constantFrom("\n", "\r\n"),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (events, newline, cuts) => {
          const text = events
            .map(
              (item) =>
                [
                  ...(item.comment === undefined ? [] : [`:${item.comment}`]),
                  ...(item.type === undefined ? [] : [`event: ${item.type}`]),
                  ...item.data.map((data) => `data: ${data}`),
                ]
                  .map((fieldLine) => fieldLine + newline)
                  .join("") + newline,
            )
            .join("");
          const pieces = split(new TextEncoder().encode(text), cuts);
          expect(decodeAll(pieces)).toEqual(await decodeWithSdk(pieces));
        },
      ),
      { numRuns: 300 },
    );
  });
});
