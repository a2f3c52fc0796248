// The sessions the inspector's browser test shows: seven turns of a real Agent recorded with
// `recordContext: true` (a fact saved by a tool, an image, a summary, recalled memories, a
// trimmed window) and a hostile session (markup in its id and text, an SVG stored as an image).
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import { z } from "zod";
import { Agent } from "../../src/agent/agent";
import type { RecallMemoryProvider } from "../../src/providers/memory-provider";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";
import { SummaryMemory } from "../../src/strategies/summary-memory";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import { tool } from "../../src/tools/tool";

export const SESSION = "support/ada-2026";
/** A session longer than the page's first read (200 messages): the rest is loaded on demand. */
export const LONG_SESSION = "long-session";
export const LONG_SESSION_MESSAGES = 450;
export const HOSTILE = `<img src=x onerror=alert("id")> "quoted" & 🙂`;
/** An SVG that would run script if a browser showed it as a document. */
export const HOSTILE_SVG = `<svg xmlns="http://www.w3.org/2000/svg" onload="alert('svg')"><rect width="9" height="9"/></svg>`;

/** A self-contained recall provider (the CLI loads it with --provider; the agent uses it too). */
export const PROVIDER_SOURCE = `
const memories = [
  { id: "mem-tea", content: "Ada drinks green tea every morning." },
  { id: "mem-lyon", content: "Ada lives in Lyon and cycles to work." },
  { id: "mem-cat", content: "Ada has a grey cat called Pixel." },
];
const words = (text) => new Set(String(text).toLowerCase().match(/[a-z]+/g) ?? []);
export default {
  type: "demo-recall",
  async read({ query = "", limit = 5 }) {
    const asked = words(query);
    return memories
      .map((memory) => {
        const own = words(memory.content);
        const shared = [...asked].filter((word) => own.has(word)).length;
        return { ...memory, score: Math.round((1000 * shared) / Math.max(1, asked.size)) / 1000 };
      })
      .filter((memory) => memory.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  },
  async write() {},
};
`;

/** A 48×48 PNG (a blue square with a white cross), built by hand: signature, IHDR, IDAT, IEND. */
export function png(): Uint8Array {
  const size = 48;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const cross = Math.abs(x - y) < 3 || Math.abs(x + y - size) < 3;
      rows.push(...(cross ? [255, 255, 255] : [29, 95, 191]));
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(Buffer.from(rows))),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

/** Writes the recall provider to `providerPath` and seeds the file store at `storePath`. */
export async function seedInspectorStore(storePath: string, providerPath: string): Promise<void> {
  writeFileSync(providerPath, PROVIDER_SOURCE);
  const provider = (await import(pathToFileURL(providerPath).href)).default as RecallMemoryProvider;
  const store = new FileMemoryStore({ path: storePath });
  const model = new MockLanguageModel({
    responses: (call, index) => {
      if (!call.tools?.length) return { text: "Ada introduced herself, asked about tea and Lyon, and sent a photo." };
      const last = call.messages.at(-1)!;
      // The user's own words: the last text part (the recalled memories come before it).
      const asked =
        last.role !== "user"
          ? ""
          : typeof last.content === "string"
            ? last.content
            : (last.content.findLast((part) => part.type === "text")?.text ?? "");
      if (asked.startsWith("Hi, I'm Ada"))
        return {
          toolCalls: [{ id: `call-${index}`, name: "remember_fact", arguments: { key: "name", value: "Ada" } }],
        };
      if (asked.includes("weather"))
        return { toolCalls: [{ id: `call-${index}`, name: "get_weather", arguments: { city: "Lyon" } }] };
      return {
        text: `Answer ${index}: ${"Here is a detailed reply that goes on for a while. ".repeat(12)}`,
        usage: { inputTokens: 400 + index, outputTokens: 90 },
      };
    },
  });
  const agent = new Agent({
    name: "support-bot",
    model,
    systemPrompt: "You are a friendly support assistant.",
    memory: new SummaryMemory({ summarizeThreshold: 6, recentMessages: 4, maxTokens: 700 }),
    memoryStore: store,
    memoryProvider: provider,
    enableMemoryTools: true,
    recordContext: true,
    sessionId: SESSION,
    tools: {
      get_weather: tool({
        description: "The weather in a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => `Sunny in ${city}, 24 °C. ${"(station data) ".repeat(40)}`,
      }),
    },
  });
  await agent.run("Hi, I'm Ada. Please remember my name.");
  await agent.run({
    input: [
      { type: "text", text: "Here is a photo of my bike." },
      { type: "image", image: png(), mediaType: "image/png" },
    ],
  });
  await agent.run("What tea should I try this week?");
  await agent.run("Any cycling routes around Lyon?");
  await agent.run("What's the weather in Lyon today?");
  await agent.run("Can you remind me what we talked about?");
  await agent.run("And what do you know about my cat?");
  await store.appendMessages(
    LONG_SESSION,
    Array.from({ length: LONG_SESSION_MESSAGES }, (_, index) => ({
      id: `long-${index}`,
      role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
      content: `Message number ${index}.`,
    })),
  );
  await store.appendMessages(HOSTILE, [
    {
      id: "h1",
      role: "user",
      content: `<script>alert(1)</script><img src=x onerror="alert(2)"> ${"A".repeat(1_000_000)}`,
      timestamp: Date.now(),
    },
    {
      id: "h2",
      role: "user",
      content: [
        { type: "text", text: "an svg stored as an image" },
        { type: "image", image: Buffer.from(HOSTILE_SVG).toString("base64"), mediaType: "image/svg+xml" },
      ],
      timestamp: Date.now(),
    },
  ]);
}
