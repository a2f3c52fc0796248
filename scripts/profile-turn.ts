/**
 * The default turn under a profiler: `new Agent({ model, memory: "sliding_window", maxMessages: 10,
 * memoryStore })` with an instant model on an `InMemoryStore` holding 10,000 messages, driven for
 * many turns, optionally beside Mastra 0.24 (`--mastra`) in the same process.
 *
 *   npx tsx scripts/profile-turn.ts [--turns 10000] [--stored 10000] [--mastra] [--file] [--profile out.cpuprofile]
 *   npx tsx scripts/cpu-profile-summary.ts out.cpuprofile
 *
 * `--profile` records a V8 CPU profile of the timed turns only (seeding and start-up left out),
 * through the inspector; `node --cpu-prof` works too but also records start-up.
 * Prints the median and mean per turn. Not a benchmark (bench/ holds those): a harness to profile.
 */
import { performance } from "node:perf_hooks";
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, FileMemoryStore, InMemoryStore, type AgentMessage, type MemoryStore } from "agentcore";
import { InstantModel } from "../bench/agent-loop-fixtures";

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : Number(args[index + 1]);
};
const TURNS = option("--turns", 10_000);
const STORED = option("--stored", 10_000);
const text = (index: number) =>
  `message number ${index}: a sentence or two of ordinary chat text, about the length of a real turn.`;

async function seed(store: MemoryStore, sessionId: string): Promise<void> {
  for (let start = 0; start < STORED; start += 1_000) {
    const batch: AgentMessage[] = Array.from({ length: Math.min(1_000, STORED - start) }, (_, offset) => {
      const index = start + offset;
      return {
        id: `m${index}`,
        role: index % 2 === 0 ? "user" : "assistant",
        content: text(index),
        timestamp: 1_700_000_000_000 + index,
      };
    });
    await store.appendMessages!(sessionId, batch);
  }
}

function report(name: string, times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  const p99 = sorted[Math.floor(sorted.length * 0.99)]!;
  console.log(
    `${name}: median ${(median * 1000).toFixed(1)} µs, p95 ${(p95 * 1000).toFixed(1)} µs, p99 ${(p99 * 1000).toFixed(1)} µs, max ${sorted.at(-1)!.toFixed(1)} ms, mean ${(mean * 1000).toFixed(1)} µs over ${times.length} turns`,
  );
  return median;
}

async function agentcoreTurns(store: MemoryStore, turns: number): Promise<number[]> {
  await seed(store, "profile");
  const agent = new Agent({
    model: new InstantModel("ok"),
    memory: "sliding_window",
    maxMessages: 10,
    memoryStore: store,
    sessionId: "profile",
  });
  const times: number[] = [];
  const profileIndex = args.indexOf("--profile");
  const session = profileIndex === -1 ? undefined : new Session();
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
  }
  // The profile starts after a tenth of the turns: the warm-up (compiling, the tokenizer's lazy load) is not what a turn costs.
  const warmup = Math.floor(turns / 10);
  for (let index = 0; index < turns; index++) {
    if (session && index === warmup) await session.post("Profiler.start");
    const started = performance.now();
    const result = await agent.run(`next question ${index}`);
    times.push(performance.now() - started);
    if (result.text !== "ok") throw new Error("unexpected answer");
  }
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    writeFileSync(args[profileIndex + 1]!, JSON.stringify(profile));
    session.disconnect();
  }
  return times;
}

async function mastraTurns(turns: number): Promise<number[]> {
  const { Memory } = await import("@mastra/memory");
  const { InMemoryStore: MastraStore } = await import("@mastra/core/storage");
  const storage = new MastraStore();
  await storage.init();
  const memory = new Memory({
    storage,
    options: {
      lastMessages: 20,
      semanticRecall: false,
      workingMemory: { enabled: false },
      threads: { generateTitle: false },
    },
  });
  const thread = await memory.createThread({ threadId: "profile", resourceId: "user" });
  const v2 = (id: string, index: number, role: "user" | "assistant", content: string) => ({
    id,
    threadId: thread.id,
    resourceId: "user",
    role,
    type: "text",
    createdAt: new Date(1_700_000_000_000 + index),
    content: { format: 2 as const, parts: [{ type: "text" as const, text: content }] },
  });
  for (let start = 0; start < STORED; start += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, STORED - start) }, (_, offset) =>
      v2(`m${start + offset}`, start + offset, (start + offset) % 2 === 0 ? "user" : "assistant", text(start + offset)),
    );
    await memory.saveMessages({ messages: batch, format: "v2" });
  }
  let clock = STORED;
  const times: number[] = [];
  for (let index = 0; index < turns; index++) {
    const started = performance.now();
    await memory.rememberMessages({ threadId: thread.id, resourceId: "user", config: { lastMessages: 20 } });
    await memory.saveMessages({
      messages: [
        v2(`t${index}u`, clock++, "user", `next question ${index}`),
        v2(`t${index}a`, clock++, "assistant", "ok"),
      ],
      format: "v2",
    });
    times.push(performance.now() - started);
  }
  return times;
}

if (args.includes("--file")) {
  const directory = mkdtempSync(join(tmpdir(), "agentcore-profile-"));
  try {
    report(
      "agentcore FileMemoryStore turn",
      (await agentcoreTurns(new FileMemoryStore(join(directory, "sessions.json")), TURNS)).slice(TURNS / 10),
    );
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
} else {
  const ours = report(
    "agentcore InMemoryStore turn",
    (await agentcoreTurns(new InMemoryStore(), TURNS)).slice(TURNS / 10),
  );
  if (args.includes("--mastra")) {
    const theirs = report("Mastra Memory InMemoryStore turn", (await mastraTurns(Math.min(TURNS, 2_000))).slice(100));
    console.log(`Mastra / agentcore (medians): ${(theirs / ours).toFixed(2)}×`);
  }
}
