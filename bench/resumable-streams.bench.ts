/**
 * The cost of recording a resumable stream (issue 42): one turn streamed with
 * `streamText(...).toUIMessageStreamResponse()` and read to its end, 1,000 text deltas, with
 * `resumable: true` and without, interleaved, on the in-memory store, the local Redis and the local
 * PostgreSQL. The recorded response ends after the stream's last chunk and its end are written to
 * the log, so its time includes every write. Per chunk: the difference of the medians over the UI
 * chunks sent.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import {
  InMemoryStore,
  streamText,
  type LanguageModel,
  type LanguageModelStreamPart,
  type MemoryStore,
} from "agentcore";
import { collectGarbage, formatMs, formatSample, summarise, table, type Benchmark } from "./harness";
import { serverStoreCandidates } from "./store-candidates";

const DELTAS = 1_000;

/** A model streaming `DELTAS` deltas of 5 characters as fast as they are read. */
const model: LanguageModel = {
  provider: "bench",
  modelId: "instant",
  async doGenerate() {
    throw new Error("streamed only");
  },
  async *doStream(): AsyncGenerator<LanguageModelStreamPart> {
    for (let index = 0; index < DELTAS; index++) yield { type: "text-delta", delta: "abcd " };
    yield {
      type: "finish",
      finishReason: "stop",
      usage: { inputTokens: 10, outputTokens: DELTAS, totalTokens: 10 + DELTAS },
    };
  },
};

let session = 0;

/** One turn on a fresh session, its UI stream response read to the end; resolves to the SSE events read. */
async function turn(store: MemoryStore, resumable: boolean): Promise<number> {
  const result = streamText({
    model,
    messages: [{ role: "user", content: "Tell me a long story." }],
    sessionId: `resumable-bench-${process.pid}-${session++}`,
    memoryStore: store,
    ...(resumable ? { resumable: { ttlMs: 60_000 } } : {}),
  });
  const reader = result.toUIMessageStreamResponse().body!.pipeThrough(new TextDecoderStream()).getReader();
  let events = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    events += value.split("\n\n").length - 1;
  }
  await result.response;
  return events - 1; // the closing [DONE] is no chunk
}

/** Each round runs both variants once, in alternating order. */
async function interleaved(store: MemoryStore, runs: number, warmup: number) {
  const times: Record<"plain" | "recorded", number[]> = { plain: [], recorded: [] };
  let chunks = 0;
  for (let round = 0; round < warmup + runs; round++) {
    const order: ("plain" | "recorded")[] = round % 2 === 0 ? ["plain", "recorded"] : ["recorded", "plain"];
    for (const variant of order) {
      collectGarbage();
      const started = performance.now();
      chunks = await turn(store, variant === "recorded");
      if (round >= warmup) times[variant].push(performance.now() - started);
    }
  }
  return { plain: summarise(times.plain), recorded: summarise(times.recorded), chunks };
}

export const benchmark: Benchmark = {
  title: "Resumable streams: the cost of recording a UI stream",
  async run({ quick }) {
    const runs = quick ? 3 : 40;
    const warmup = quick ? 1 : 5;
    const rows: (string | number)[][] = [];
    const candidates: { name: string; open: () => Promise<{ store: MemoryStore; close(): Promise<void> } | string> }[] =
      [
        {
          name: "InMemoryStore (log in this process)",
          open: async () => ({ store: new InMemoryStore(), close: async () => {} }),
        },
        ...serverStoreCandidates,
      ];
    for (const candidate of candidates) {
      const opened = await candidate.open();
      if (typeof opened === "string") {
        rows.push([candidate.name, opened, "", "", ""]);
        continue;
      }
      try {
        const { plain, recorded, chunks } = await interleaved(opened.store, runs, warmup);
        const perChunk = (recorded.median - plain.median) / chunks;
        rows.push([candidate.name, formatSample(plain), formatSample(recorded), formatMs(perChunk), String(chunks)]);
      } finally {
        await opened.close();
      }
    }
    return [
      `One turn of ${DELTAS.toLocaleString("en")} text deltas streamed as a UI message stream response and read to its end (the turn stored), median (p10–p90) of ${runs} runs per cell after ${warmup} warm-ups, the two variants interleaved. *Recorded*: \`resumable: true\`, every chunk written to the store's stream log (in batches: one write in flight, the chunks that came meanwhile in the next), the log ended before the response ends. *Per chunk*: the difference of the medians over the chunks sent. Load average at the end: ${loadavg()[0]!.toFixed(1)} (a shared machine: the difference is what counts).`,
      "",
      table(["store", "not recorded", "recorded", "per chunk", "UI chunks"], rows),
    ].join("\n");
  },
};
