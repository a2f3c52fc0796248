/**
 * Streaming overhead: agentcore's `agent.stream()` against the raw `openai` client, both reading
 * the same 1k-chunk answer from the same loopback SSE server.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import OpenAI from "openai";
import { Agent, InMemoryStore, createOpenAI } from "agentcore";
import { FakeLlmServer } from "../test/servers/fake-llm-server";
import { openaiStream } from "../test/servers/wire-formats";
import { formatSample, summarise, table, type Benchmark, type Sample } from "./harness";

/** openaiStream cuts the text into 5-character deltas: 5,000 characters = 1,000 text chunks. */
const CHUNKS = 1_000;
const ANSWER = "abcd ".repeat(CHUNKS);

interface Timing {
  firstChunk: number;
  total: number;
}

export const benchmark: Benchmark = {
  title: "Streaming overhead: agent.stream() beside the raw openai client",
  async run({ quick }) {
    const runs = quick ? 3 : 60;
    const server = await FakeLlmServer.start();
    try {
      const baseURL = `${server.url}/v1`;
      const raw = new OpenAI({ apiKey: "test", baseURL, maxRetries: 0 });
      const provider = createOpenAI({ apiKey: "test", baseURL });
      let session = 0;
      const agent = new Agent({ model: provider("gpt-4o-mini"), memoryStore: new InMemoryStore(), maxRetries: 0 });

      const viaRaw = async (): Promise<Timing> => {
        server.enqueue(openaiStream({ text: ANSWER }));
        const start = performance.now();
        let firstChunk = -1;
        let text = "";
        const stream = await raw.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Tell me a long story." }], stream: true, stream_options: { include_usage: true } });
        for await (const chunk of stream) {
          const delta = chunk.choices[0]?.delta?.content;
          if (delta) {
            if (firstChunk < 0) firstChunk = performance.now() - start;
            text += delta;
          }
        }
        const total = performance.now() - start;
        if (text !== ANSWER) throw new Error(`raw openai: got ${text.length} characters, expected ${ANSWER.length}`);
        return { firstChunk, total };
      };

      const viaAgent = async (): Promise<Timing> => {
        server.enqueue(openaiStream({ text: ANSWER }));
        const start = performance.now();
        let firstChunk = -1;
        let text = "";
        // A fresh session per run, so the history (and the request) stays the same size.
        const stream = agent.stream({ input: "Tell me a long story.", sessionId: `s${session++}` });
        for await (const delta of stream.textStream) {
          if (delta && firstChunk < 0) firstChunk = performance.now() - start;
          text += delta;
        }
        await stream.response; // the turn persisted to the store
        const total = performance.now() - start;
        if (text !== ANSWER) throw new Error(`agent.stream: got ${text.length} characters, expected ${ANSWER.length}`);
        return { firstChunk, total };
      };

      // Interleaved, so both see the same machine load.
      const timings = { raw: [] as Timing[], agent: [] as Timing[] };
      for (let warm = 0; warm < (quick ? 1 : 5); warm++) {
        await viaRaw();
        await viaAgent();
      }
      // Alternating which goes first, so neither always runs right after the other's garbage.
      for (let index = 0; index < runs; index++) {
        if (index % 2 === 0) {
          timings.raw.push(await viaRaw());
          timings.agent.push(await viaAgent());
        } else {
          timings.agent.push(await viaAgent());
          timings.raw.push(await viaRaw());
        }
      }
      const rows: string[][] = [];
      const samples: Record<"raw" | "agent", { first: Sample; total: Sample }> = {
        raw: { first: summarise(timings.raw.map((t) => t.firstChunk)), total: summarise(timings.raw.map((t) => t.total)) },
        agent: { first: summarise(timings.agent.map((t) => t.firstChunk)), total: summarise(timings.agent.map((t) => t.total)) },
      };
      rows.push(["raw `openai` client (`chat.completions.create`, `stream: true`)", formatSample(samples.raw.first), formatSample(samples.raw.total)]);
      rows.push(["agentcore `agent.stream()` (`textStream`, then `response`)", formatSample(samples.agent.first), formatSample(samples.agent.total)]);
      rows.push([
        "ratio agentcore / raw (medians)",
        `${(samples.agent.first.median / samples.raw.first.median).toFixed(2)}×`,
        `${(samples.agent.total.median / samples.raw.total.median).toFixed(2)}×`,
      ]);
      // Each run's pair (raw and agent back to back) shares the machine's load of that moment: the median of the pairs' ratios is the steadiest figure on a busy box.
      const pairRatio = (pick: (timing: Timing) => number) => summarise(timings.agent.map((timing, index) => pick(timing) / pick(timings.raw[index]!))).median;
      rows.push([`ratio agentcore / raw, median of the ${runs} run-by-run pairs`, `${pairRatio((timing) => timing.firstChunk).toFixed(2)}×`, `${pairRatio((timing) => timing.total).toFixed(2)}×`]);
      return [
        `Load average at the end of this section: ${loadavg()[0]!.toFixed(1)} (the machine is shared with other work; the ratios of runs measured side by side are what count).`,
        "",
        `A ${CHUNKS.toLocaleString("en-US")}-chunk answer (${ANSWER.length.toLocaleString("en-US")} characters in 5-character deltas, then usage and \`[DONE]\`) from a loopback SSE server with no delay between events, read through the raw \`openai\` client and through \`agent.stream()\` (model \`gpt-4o-mini\` via \`createOpenAI({ apiKey, baseURL })\`, in-memory store, a fresh session per run; total includes persisting the turn). The two are interleaved run by run, alternating which goes first. Median (p10–p90) of ${runs} runs each after warm-up.`,
        "",
        table(["client", "time to first text chunk", "total"], rows),
      ].join("\n");
    } finally {
      await server.close();
    }
  },
};
