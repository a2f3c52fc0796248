/**
 * Issue 33 study (document side): read latency and heap at 10,000 memories, defaults against the index options given as JSON, interleaved.
 *   npx tsx --expose-gc bench/recall-docs-latency.ts '{"expansionWeight":0.125,"expansionOwnDf":true,"expansionLength":true}'
 */
import { SemanticMemoryProvider } from "agentcore";
import { InMemorySemanticIndex } from "agentcore/semantic";
import { loadLocomo } from "./locomo";
import { withGenerated } from "./recall-protocol";
import { repeated, interleaved } from "./recall-protocol.bench";
import { collectGarbage, formatSample } from "./harness";
const dev = loadLocomo();
const memories = repeated(dev, 10_000);
const queries = withGenerated(dev).flatMap((c) => c.questions.map((q) => q.question));
const make = async (index: object) => {
  const p = new SemanticMemoryProvider({
    scope: "user",
    index: new InMemorySemanticIndex({ maxDocuments: 10_000, ...index }),
  });
  for (let s = 0; s < memories.length; s += 1000)
    await p.write(memories.slice(s, s + 1000), { sessionId: `s${s % 3}`, userId: "bench" });
  return p;
};
const v = JSON.parse(process.argv[2]!);
collectGarbage();
const h0 = process.memoryUsage().heapUsed;
const a = await make({});
collectGarbage();
const h1 = process.memoryUsage().heapUsed;
const b = await make(v);
collectGarbage();
const h2 = process.memoryUsage().heapUsed;
const [x, y] = await interleaved([a, b], queries, 600);
console.log(
  `defaults ${formatSample(x!)} | variant ${formatSample(y!)} | ratio ${(y!.median / x!.median).toFixed(2)} | heap/memory ${((h1 - h0) / 1e4).toFixed(0)} B vs ${((h2 - h1) / 1e4).toFixed(0)} B`,
);
