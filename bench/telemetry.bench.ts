/**
 * What OpenTelemetry tracing costs per turn: the same `agent.run()` (in-memory store,
 * `sliding_window`, 1,000 stored messages, a scripted model that answers at once) without the
 * `telemetry` option, with it switched off, and traced: spans recorded by the OpenTelemetry SDK
 * (BasicTracerProvider, SimpleSpanProcessor, InMemorySpanExporter), with and without inputs and
 * outputs, and sampled out. The variants run in interleaved rounds, so they share the machine's
 * state; each turn's time is one sample.
 */
import {
  AlwaysOffSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { Agent, InMemoryStore, SlidingWindowMemory, type AgentMessage } from "agentcore";
import type { TelemetryOptions } from "agentcore/telemetry";
import { collectGarbage, formatSample, summarise, table, type Benchmark } from "./harness";
import { InstantModel } from "./agent-loop-fixtures";

const STORED = 1_000;
const ANSWER = "ok";

function seedMessages(count: number): AgentMessage[] {
  return Array.from({ length: count }, (_, index) =>
    index % 2 === 0
      ? {
          id: `u${index}`,
          role: "user",
          content: `Question ${index}: could you look at the deployment plan again before Friday?`,
          timestamp: index,
        }
      : {
          id: `a${index}`,
          role: "assistant",
          content: `Answer ${index}: the replication lag you measured is within the expected range.`,
          timestamp: index,
        },
  );
}

interface Variant {
  name: string;
  telemetry?: TelemetryOptions;
  /** Spans recorded by this variant's exporter, cleared after each check. */
  exporter?: InMemorySpanExporter;
}

function traced(name: string, options: Omit<TelemetryOptions, "tracer"> = {}, sampledOut = false): Variant {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(sampledOut ? { sampler: new AlwaysOffSampler() } : {}),
  });
  return { name, telemetry: { ...options, tracer: provider.getTracer("bench") }, exporter };
}

export const benchmark: Benchmark = {
  title: "What tracing costs per turn (OpenTelemetry, in-memory store, sliding_window, 1,000 stored messages)",
  async run({ quick }) {
    const variants: Variant[] = [
      { name: "no `telemetry` option" },
      { name: "`telemetry: { isEnabled: false }`", telemetry: { isEnabled: false } },
      traced("traced, inputs and outputs recorded (the default)"),
      traced("traced, `recordInputs: false, recordOutputs: false`", { recordInputs: false, recordOutputs: false }),
      traced("traced, every span sampled out (`AlwaysOffSampler`)", {}, true),
    ];
    const agents = await Promise.all(
      variants.map(async (variant, index) => {
        const store = new InMemoryStore();
        const sessionId = `bench-telemetry-${index}`;
        await store.appendMessages(sessionId, seedMessages(STORED));
        return new Agent({
          model: new InstantModel(ANSWER),
          memory: new SlidingWindowMemory({ maxTurns: 10 }),
          memoryStore: store,
          sessionId,
          ...(variant.telemetry ? { telemetry: variant.telemetry } : {}),
        });
      }),
    );
    const rounds = quick ? 2 : 20;
    const perRound = quick ? 3 : 50;
    const times = variants.map(() => [] as number[]);
    // Warm-up: each variant's code paths compiled before any timing.
    for (const agent of agents) for (let turn = 0; turn < (quick ? 3 : 50); turn++) await agent.run("warm-up question");
    for (const variant of variants) {
      const names = variant.exporter?.getFinishedSpans().map((span) => span.name) ?? [];
      const expected = variant.exporter && !variant.name.includes("sampled out") ? 5 : 0;
      if (names.length !== expected * (quick ? 3 : 50))
        throw new Error(`${variant.name}: ${names.length} spans recorded in the warm-up`);
      variant.exporter?.reset();
    }
    for (let round = 0; round < rounds; round++) {
      collectGarbage();
      for (const [index, agent] of agents.entries()) {
        for (let turn = 0; turn < perRound; turn++) {
          const start = performance.now();
          const result = await agent.run(`question ${round}.${turn}: what about the replication lag?`);
          times[index]!.push(performance.now() - start);
          if (result.text !== ANSWER) throw new Error(`${variants[index]!.name}: unexpected answer`);
        }
        variants[index]!.exporter?.reset();
      }
    }
    const samples = times.map((values) => summarise(values));
    const base = samples[0]!.median;
    return [
      `One turn: \`agent.run()\` on an \`InMemoryStore\` session seeded with ${STORED.toLocaleString("en-US")} messages, \`new SlidingWindowMemory({ maxTurns: 10 })\`, a scripted model that answers at once (no tool call: five spans per traced turn). ${rounds} rounds; in each, every variant runs ${perRound} turns in turn, after ${quick ? 3 : 50} untimed warm-up turns each. Median (p10–p90) per turn; the ratio is the median over the first row's, measured side by side in this run. The traced variants record into an \`InMemorySpanExporter\` through a \`SimpleSpanProcessor\` (cleared between rounds), the cheapest real pipeline: an exporter that sends spans over the network adds its own cost.`,
      "",
      table(
        ["variant", "per turn", "vs no option"],
        variants.map((variant, index) => [
          variant.name,
          formatSample(samples[index]!),
          `${(samples[index]!.median / base).toFixed(2)}×`,
        ]),
      ),
    ].join("\n");
  },
};
