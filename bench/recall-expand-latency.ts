/**
 * Issue 33, document expansion: reads at 10,000 memories (the dev turns on the user's path,
 * repeated), defaults against `expansionWeight` 0.125, interleaved read by read; and the heap a
 * memory of each index.   npx tsx --expose-gc bench/recall-expand-latency.ts
 */
import { loadavg } from "node:os";
import { SemanticMemoryProvider, type AgentMessage } from "agentcore";
import { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "agentcore/semantic";
import { collectGarbage, formatSample } from "./harness";
import { loadLocomo } from "./locomo";
import { interleaved, repeated } from "./recall-protocol.bench";
import { withGenerated } from "./recall-protocol";

const dev = loadLocomo();
const memories = repeated(dev, 10_000);
const fill = async (memories: AgentMessage[], index: InMemorySemanticIndexOptions) => {
  const provider = new SemanticMemoryProvider({
    scope: "user",
    index: new InMemorySemanticIndex({ ...index, maxDocuments: memories.length }),
  });
  for (let start = 0; start < memories.length; start += 1_000)
    await provider.write(memories.slice(start, start + 1_000), { sessionId: `s${start % 3}`, userId: "bench" });
  return provider;
};
const heap = () => {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};
// Each provider kept alive, so the difference is its heap (index and documents; the messages written are not counted).
const kept: SemanticMemoryProvider[] = [];
for (const options of [{}, { expansionWeight: 0.125 }, {}, { expansionWeight: 0.125 }]) {
  const before = heap();
  kept.push(await fill(memories, options));
  console.log(`heap ${JSON.stringify(options)}: ${((heap() - before) / memories.length).toFixed(0)} B a memory`);
}
kept.length = 0;
const queries = withGenerated(dev).flatMap((conversation) =>
  conversation.questions.map((question) => question.question),
);
const providers = [await fill(memories, {}), await fill(memories, { expansionWeight: 0.125 })];
for (let round = 0; round < 3; round++) {
  const [plain, expanded] = await interleaved(providers, queries, 550);
  console.log(
    `reads: defaults ${formatSample(plain!)}, expansion ${formatSample(expanded!)}, ratio ${(expanded!.median / plain!.median).toFixed(2)}×, load ${loadavg()[0]!.toFixed(1)}`,
  );
}
