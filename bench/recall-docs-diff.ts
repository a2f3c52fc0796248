/**
 * Issue 33 study: the questions whose R@10 differs between the defaults and the index options given (JSON), optionally one category.
 *   npx tsx bench/recall-docs-diff.ts '{"expansionWeight":0.125}' 2
 */
import { SemanticMemoryProvider } from "agentcore";
import { InMemorySemanticIndex } from "agentcore/semantic";
import { loadLocomo, userPathMessages, fractionalRecall } from "./locomo";
import { withGenerated } from "./recall-protocol";
const variant = JSON.parse(process.argv[2]!);
const cat = Number(process.argv[3] ?? 0);
for (const c of withGenerated(loadLocomo())) {
  const ps = [new SemanticMemoryProvider(), new SemanticMemoryProvider({ index: new InMemorySemanticIndex(variant) })];
  const msgs = userPathMessages(c);
  const byId = new Map(msgs.map((m) => [m.id!, String(m.content)]));
  for (const p of ps) await p.write(msgs, { sessionId: c.sampleId });
  for (const q of c.questions) {
    if (cat && q.category !== cat) continue;
    const [a, b] = await Promise.all(ps.map((p) => p.read({ sessionId: c.sampleId, query: q.question, limit: 50 })));
    const ra = a!.map((r) => r.messageId!),
      rb = b!.map((r) => r.messageId!);
    const x = fractionalRecall(q.evidence, ra.slice(0, 10)),
      y = fractionalRecall(q.evidence, rb.slice(0, 10));
    if (x === y) continue;
    console.log(`${(y - x).toFixed(2)} [${q.category}] ${q.question}`);
    for (const e of q.evidence)
      console.log(`   E ${e} ${ra.indexOf(e) + 1} -> ${rb.indexOf(e) + 1}: ${byId.get(e)!.slice(0, 110)}`);
    if (y < x) for (const id of rb.slice(0, 3)) console.log(`   T ${id}: ${byId.get(id)!.slice(0, 110)}`);
  }
}
