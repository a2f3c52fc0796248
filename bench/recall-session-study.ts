/**
 * Issue 33 study (document side): session-level scoring. Each LoCoMo session is a pseudo-document scored by BM25; its score
 * (scaled to the best session) is blended into its turns' (scaled to the best turn), additively (`add`: turn + β × session)
 * or multiplicatively (`mul`: turn × (1 − β + β × session)), re-ranking the default read of 100; then leave-one-conversation-out over the βs.
 *   npx tsx bench/recall-session-study.ts 0,0.1,0.2,0.3 mul ['<index options JSON>']
 */
import { SemanticMemoryProvider } from "agentcore";
import { InMemorySemanticIndex } from "agentcore/semantic";
import { analyzeText } from "../src/providers/text-analysis";
import { loadLocomo, userPathMessages, fractionalRecall } from "./locomo";
import { withGenerated } from "./recall-protocol";
const convs = withGenerated(loadLocomo());
const betas = (process.argv[2] ?? "0,0.1,0.2,0.3,0.5").split(",").map(Number);
const mode = process.argv[3] ?? "add";
const index = JSON.parse(process.argv[4] ?? "{}");
const per = betas.map(() => new Map<number, [number, number]>());
const perConv = betas.map(() => new Map<string, Map<number, [number, number]>>());
for (const c of convs) {
  const p = new SemanticMemoryProvider({ index: new InMemorySemanticIndex(index) });
  const msgs = userPathMessages(c);
  await p.write(msgs, { sessionId: c.sampleId });
  // sessions: by dia prefix
  const sess = new Map<string, Map<string, number>>();
  const sessOf = (id: string) => id.split(":")[0]!;
  for (const m of msgs) {
    const s = sessOf(m.id!);
    const tf = sess.get(s) ?? new Map();
    sess.set(s, tf);
    for (const t of analyzeText(String(m.content).replace(/^\s*\p{Lu}[\p{L}\p{N}'’-]*:\s/u, "")))
      tf.set(t, (tf.get(t) ?? 0) + 1);
  }
  const len = new Map([...sess].map(([s, tf]) => [s, [...tf.values()].reduce((a, b) => a + b, 0)]));
  const avg = [...len.values()].reduce((a, b) => a + b, 0) / len.size;
  const df = new Map<string, number>();
  for (const tf of sess.values()) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const N = sess.size;
  const bm25 = (q: string[], s: string) => {
    const tf = sess.get(s)!;
    let score = 0;
    for (const t of new Set(q)) {
      const f = tf.get(t) ?? 0;
      if (!f) continue;
      const idf = Math.log(1 + (N - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      score += (idf * f * 2.2) / (f + 1.2 * (0.25 + (0.75 * len.get(s)!) / avg));
    }
    return score;
  };
  for (const q of c.questions) {
    const recs = await p.read({ sessionId: c.sampleId, query: q.question, limit: 100 });
    const qt = analyzeText(q.question);
    const ss = new Map([...sess.keys()].map((s) => [s, bm25(qt, s)]));
    const bestS = Math.max(...ss.values(), 1e-9);
    const best = Math.max(...recs.map((r) => r.score ?? 0), 1e-9);
    betas.forEach((beta, i) => {
      const ranked = recs
        .map((r) => {
          const t = (r.score ?? 0) / best,
            s = ss.get(sessOf(r.messageId!))! / bestS;
          return [r.messageId!, mode === "add" ? t + beta * s : t * (1 - beta + beta * s)] as const;
        })
        .sort((a, b) => b[1] - a[1])
        .map(([id]) => id);
      const e = per[i]!.get(q.category) ?? [0, 0];
      e[0] += fractionalRecall(q.evidence, ranked.slice(0, 10));
      e[1]++;
      per[i]!.set(q.category, e);
      const pc = perConv[i]!.get(c.sampleId) ?? new Map();
      perConv[i]!.set(c.sampleId, pc);
      const f = pc.get(q.category) ?? [0, 0];
      f[0] += fractionalRecall(q.evidence, ranked.slice(0, 10));
      f[1]++;
      pc.set(q.category, f);
    });
  }
}
betas.forEach((beta, i) => {
  const m = per[i]!;
  const dev =
    [1, 2, 3, 4, 5].reduce((s, c) => s + m.get(c)![0], 0) / [1, 2, 3, 4, 5].reduce((s, c) => s + m.get(c)![1], 0);
  console.log(
    `${mode} beta ${beta}: ${(100 * dev).toFixed(1)} | ${[1, 2, 3, 4, 5, 6].map((c) => ((100 * m.get(c)![0]) / m.get(c)![1]).toFixed(1)).join(" / ")}`,
  );
});

// LOO over the betas (the first listed wins ties), on all questions of the other conversations
const loo = new Map<number, [number, number]>();
for (const held of convs.map((c) => c.sampleId)) {
  let best = 0,
    bestScore = -1;
  betas.forEach((_, i) => {
    let sum = 0,
      n = 0;
    for (const [id, m] of perConv[i]!)
      if (id !== held)
        for (const [s2, q2] of m.values()) {
          sum += s2;
          n += q2;
        }
    if (sum / n > bestScore) [best, bestScore] = [i, sum / n];
  });
  console.log(`  ${held}: beta ${betas[best]}`);
  for (const [cat, [s2, q2]] of perConv[best]!.get(held)!) {
    const e = loo.get(cat) ?? [0, 0];
    e[0] += s2;
    e[1] += q2;
    loo.set(cat, e);
  }
}
const dev =
  [1, 2, 3, 4, 5].reduce((s, c) => s + loo.get(c)![0], 0) / [1, 2, 3, 4, 5].reduce((s, c) => s + loo.get(c)![1], 0);
console.log(
  `LOO: ${(100 * dev).toFixed(1)} | ${[1, 2, 3, 4, 5, 6].map((c) => ((100 * loo.get(c)![0]) / loo.get(c)![1]).toFixed(1)).join(" / ")}`,
);
