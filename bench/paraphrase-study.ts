/**
 * Issue 33, paraphrase: what a small synonym / lemma resource from npm adds to the user's path.
 * Not a benchmark (the packages are not dependencies): install them outside the repository and
 * point PARAPHRASE_DIR at that folder, e.g.
 *   mkdir -p /tmp/para && cd /tmp/para && npm init -y && npm install synonyms@1.0.1 wink-lemmatizer@3.0.4
 *   PARAPHRASE_DIR=/tmp/para MODE=syn W=0.3 PER=3 npx tsx --expose-gc bench/paraphrase-study.ts
 * Each read is the default read, then a second read of the query's synonyms (MODE=lem: of its
 * words' lemmas' synonyms too), up to PER a word, merged at weight W (each list scaled to its
 * best score); W=0 is the default ranking. Prints R@10 per category, the resource's load time and
 * heap, and the expansion's time a query. Results: BENCHMARKS.md (recall-protocol section).
 */
import { createRequire } from "node:module";
import { loadLocomo, userPathMessages, fractionalRecall } from "../bench/locomo";
import { withGenerated, GENERATED } from "../bench/recall-protocol";
import { SemanticMemoryProvider } from "agentcore";
import { analyzeText } from "../src/providers/text-analysis";
const require = createRequire(`${process.env.PARAPHRASE_DIR ?? "/tmp/para"}/package.json`);
const t0 = performance.now();
const heap0 = process.memoryUsage().heapUsed;
const synonyms = require("synonyms");
const lemmatizer = require("wink-lemmatizer");
// Symmetric: every word of an entry ~ the entry and its other words (single words only).
const links = new Map<string, Set<string>>();
for (const [head, byPos] of Object.entries(synonyms.dictionary as Record<string, Record<string, string[]>>))
  for (const list of Object.values(byPos)) {
    const words = [head, ...list].filter((w) => /^[a-z]+$/.test(w));
    for (const a of words)
      for (const b of words)
        if (a !== b) {
          let s = links.get(a);
          if (!s) links.set(a, (s = new Set()));
          s.add(b);
        }
  }
const loadMs = performance.now() - t0;
(globalThis as { gc?: () => void }).gc?.();
const heap = process.memoryUsage().heapUsed - heap0;
const MODE = process.env.MODE ?? "syn";
const W = Number(process.env.W ?? 0.3);
const PER = Number(process.env.PER ?? 3);
function expand(query: string): string {
  const out = new Set<string>();
  for (const word of query.toLowerCase().match(/[a-z]+/g) ?? []) {
    if (analyzeText(word).length === 0) continue; // stopword
    const forms = new Set([word]);
    if (MODE === "lem") {
      forms.add(lemmatizer.verb(word));
      forms.add(lemmatizer.noun(word));
    }
    for (const form of forms) for (const s of [...(links.get(form) ?? [])].slice(0, PER)) if (!forms.has(s)) out.add(s);
  }
  return [...out].join(" ");
}
const conversations = withGenerated(loadLocomo());
const per = new Map<number, [number, number]>();
let expandMs = 0;
let n = 0;
for (const c of conversations) {
  const p = new SemanticMemoryProvider();
  await p.write(userPathMessages(c), { sessionId: c.sampleId });
  for (const q of c.questions) {
    const first = await p.read({ sessionId: c.sampleId, query: q.question, limit: 50 });
    let ranked = first.map((r) => r.messageId);
    if (W > 0) {
      const a = performance.now();
      const extra = expand(q.question);
      expandMs += performance.now() - a;
      n++;
      if (extra) {
        const second = await p.read({ sessionId: c.sampleId, query: extra, limit: 50 });
        const best1 = Math.max(...first.map((r) => r.score ?? 0), 1e-9),
          best2 = Math.max(...second.map((r) => r.score ?? 0), 1e-9);
        const score = new Map<string, number>();
        first.forEach((r) => score.set(r.messageId!, (r.score ?? 0) / best1));
        second.forEach((r) => score.set(r.messageId!, (score.get(r.messageId!) ?? 0) + (W * (r.score ?? 0)) / best2));
        ranked = [...score].sort((x, y) => y[1] - x[1]).map(([id]) => id);
      }
    }
    const r = fractionalRecall(q.evidence, ranked.slice(0, 10));
    const e = per.get(q.category) ?? [0, 0];
    e[0] += r;
    e[1]++;
    per.set(q.category, e);
  }
}
const cat = (c: number) => ((100 * per.get(c)![0]) / per.get(c)![1]).toFixed(1);
const dev =
  [1, 2, 3, 4, 5].reduce((s, c) => s + per.get(c)![0], 0) / [1, 2, 3, 4, 5].reduce((s, c) => s + per.get(c)![1], 0);
console.log(
  `mode ${MODE} W ${W} PER ${PER}: dev ${(100 * dev).toFixed(1)} cats ${[1, 2, 3, 4, 5, GENERATED].map(cat).join(" / ")} | load ${loadMs.toFixed(0)} ms, heap ${(heap / 1e6).toFixed(1)} MB, words ${links.size}, expand ${((1000 * expandMs) / Math.max(n, 1)).toFixed(0)} µs/query`,
);
