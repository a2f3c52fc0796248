/**
 * `agent.stream()` beside the raw `openai` client on a 1,000-chunk answer from a loopback SSE
 * server, interleaved, many runs; `--profile out.cpuprofile` records a CPU profile of the runs
 * after warm-up (both clients). A harness to profile the streaming relay (bench/streaming.bench.ts is the benchmark).
 *
 *   npx tsx scripts/profile-stream.ts [--runs 200] [--profile out.cpuprofile]
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { performance } from "node:perf_hooks";
import OpenAI from "openai";
import { Agent, InMemoryStore, createOpenAI } from "agentcore";
import { FakeLlmServer } from "../test/servers/fake-llm-server";
import { openaiStream } from "../test/servers/wire-formats";

const args = process.argv.slice(2);
const runsIndex = args.indexOf("--runs");
const RUNS = runsIndex === -1 ? 200 : Number(args[runsIndex + 1]);
const profileIndex = args.indexOf("--profile");
const ANSWER = "abcd ".repeat(1_000);

const server = await FakeLlmServer.start();
const baseURL = `${server.url}/v1`;
const raw = new OpenAI({ apiKey: "test", baseURL, maxRetries: 0 });
const agent = new Agent({
  model: createOpenAI({ apiKey: "test", baseURL })("gpt-4o-mini"),
  memoryStore: new InMemoryStore(),
  maxRetries: 0,
});
let session = 0;
let began = 0;
const first = { raw: [] as number[], agent: [] as number[] };
const viaRaw = async () => {
  server.enqueue(openaiStream({ text: ANSWER }));
  const stream = await raw.chat.completions.create({
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: "Tell me a long story." }],
    stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta?.content ?? "";
    // The first chunk with text (the first chunk of all carries only the role).
    if (text === "" && delta) first.raw.push(performance.now() - began);
    text += delta;
  }
  if (text !== ANSWER) throw new Error("raw: wrong text");
};
const viaAgent = async () => {
  server.enqueue(openaiStream({ text: ANSWER }));
  const stream = agent.stream({ input: "Tell me a long story.", sessionId: `s${session++}` });
  let text = "";
  for await (const delta of stream.textStream) {
    if (text === "") first.agent.push(performance.now() - began);
    text += delta;
  }
  await stream.response;
  if (text !== ANSWER) throw new Error("agent: wrong text");
};
const inspector = profileIndex === -1 ? undefined : new Session();
if (inspector) {
  inspector.connect();
  await inspector.post("Profiler.enable");
}
const times = { raw: [] as number[], agent: [] as number[] };
for (let index = 0; index < RUNS + 10; index++) {
  for (const [name, run] of (index % 2
    ? [
        ["raw", viaRaw],
        ["agent", viaAgent],
      ]
    : [
        ["agent", viaAgent],
        ["raw", viaRaw],
      ]) as const) {
    if (inspector && name === "agent" && index === 10) await inspector.post("Profiler.start");
    const started = (began = performance.now());
    await run();
    if (index >= 10) times[name].push(performance.now() - started);
  }
}
if (inspector) {
  const { profile } = await inspector.post("Profiler.stop");
  writeFileSync(args[profileIndex + 1]!, JSON.stringify(profile));
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`first chunk: raw ${median(first.raw).toFixed(2)} ms, agent ${median(first.agent).toFixed(2)} ms`);
console.log(
  `total: raw ${median(times.raw).toFixed(2)} ms, agent ${median(times.agent).toFixed(2)} ms, ratio ${(median(times.agent) / median(times.raw)).toFixed(2)}×`,
);
await server.close();
