import { describe, expect, it } from "vitest";
import { parseAgentMessages, type AgentMessage } from "./agent-message";
import { decodeStoredMessages, encodeStoredMessages } from "./stored-encoding";
import { encodeStoredMessageJson } from "../stores/stored-json";

const everyByte = Uint8Array.from({ length: 256 }, (_, index) => index);

describe("the stored encoding", () => {
  it("writes bytes as $bytes base64 and URLs as $url, and reads them back as Uint8Array and URL", () => {
    const messages: AgentMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "hi" },
          { type: "image", image: everyByte, mediaType: "image/png" },
          { type: "file", data: new URL("https://example.com/a.pdf"), mediaType: "application/pdf", filename: "a.pdf" },
          { type: "image", image: "data:image/png;base64,AAAA" },
        ],
      },
      { role: "tool", toolCallId: "c", name: "t", content: [{ type: "image", image: new Uint8Array([0xff, 0]) }] },
    ];
    const text = JSON.stringify(encodeStoredMessages(messages));
    expect(JSON.parse(text)[0].content[1].image).toEqual({ $bytes: btoa(String.fromCharCode(...everyByte)) });
    expect(JSON.parse(text)[0].content[2].data).toEqual({ $url: "https://example.com/a.pdf" });
    const read = decodeStoredMessages(JSON.parse(text) as AgentMessage[]);
    const parts = read[0]!.content as { image?: unknown; data?: unknown }[];
    expect(parts[1]!.image).toBeInstanceOf(Uint8Array);
    expect(Array.from(parts[1]!.image as Uint8Array)).toEqual(Array.from(everyByte));
    expect(parts[2]!.data).toBeInstanceOf(URL);
    expect((parts[2]!.data as URL).href).toBe("https://example.com/a.pdf");
    expect(parts[3]!.image).toBe("data:image/png;base64,AAAA");
    expect(Array.from((read[1]!.content as { image: Uint8Array }[])[0]!.image)).toEqual([0xff, 0]);
    // What it reads back is a valid message again.
    expect(() => parseAgentMessages(read)).not.toThrow();
  });

  it("leaves text-only messages as they are: the same objects, old rows read unchanged", () => {
    const messages: AgentMessage[] = [
      { id: "1", role: "user", content: "hello", timestamp: 1 },
      { role: "assistant", content: [{ type: "text", text: "parts without bytes" }] },
    ];
    expect(encodeStoredMessages(messages)).toBe(messages);
    const old = JSON.parse('[{"id":"1","role":"user","content":"hello","timestamp":1}]') as AgentMessage[];
    const first = old[0];
    expect(decodeStoredMessages(old)[0]).toBe(first);
    const where = { store: "test", operation: "appendMessages", record: "message 0" };
    expect(encodeStoredMessageJson(messages[0]!, where)).toBe(JSON.stringify(messages[0]));
  });

  it("leaves corrupt stored data for the parser to name instead of decoding it to other bytes", () => {
    const stored = [{ role: "user", content: [{ type: "image", image: { $bytes: "not base64!" } }] }];
    const read = decodeStoredMessages(structuredClone(stored) as unknown as AgentMessage[]);
    expect(() => parseAgentMessages(read)).toThrow(/content\.0\.image/);
  });
});
