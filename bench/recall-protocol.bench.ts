import { cpus, loadavg } from "node:os";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite-pgvector";
import { SemanticMemoryProvider, type AgentMessage } from "agentcore";
import { InMemorySemanticIndex, PgVectorSemanticIndex } from "agentcore/semantic";
import { MockEmbeddingModel } from "agentcore/testing";
import { collectGarbage, formatSample, summarise, table, type Benchmark, type Sample } from "./harness";
import { loadLocomo, userPathMessages } from "./locomo";
import { CATEGORIES, evaluate, percent, type Evaluation } from "./recall-eval";
import {
  evaluateUserPath,
  GENERATED,
  PROTOCOL_GRID,
  protocolLeaveOneOut,
  withGenerated,
  type ProtocolLeaveOneOut,
} from "./recall-protocol";

import { DOCUMENT_SIDE, PARAPHRASE, TERM_STUDY } from "./recall-protocol-studies";
const BEFORE = { name: "before (time off: `periodWeight: 0`)", provider: { periodWeight: 0 } };
const NAMES: Record<number, string> = { ...CATEGORIES, [GENERATED]: "generated date → event" };

export const benchmark: Benchmark = {
  title: "Recall on the user's path (issue 33: defaults, per category, in-sample and leave-one-conversation-out)",
  async run({ quick }) {
    const started = performance.now();
    const dev = loadLocomo();
    const conversations = withGenerated(dev);
    const ours = await evaluateUserPath(conversations);
    const before = await evaluateUserPath(conversations, BEFORE);
    const grid = quick ? PROTOCOL_GRID.slice(0, 2) : PROTOCOL_GRID;
    const validated = await protocolLeaveOneOut(conversations, grid);
    const r10 = (evaluation: Evaluation | ProtocolLeaveOneOut, category?: number) =>
      percent(category === undefined ? evaluation.overall : evaluation.perCategory.get(category)!)[1]!;
    const dev10 = (evaluation: Evaluation | ProtocolLeaveOneOut) => {
      const sums = [1, 2, 3, 4, 5].map((category) => evaluation.perCategory.get(category)!);
      const questions = sums.reduce((sum, recall) => sum + recall.questions, 0);
      return ((100 * sums.reduce((sum, recall) => sum + recall.sums[1]!, 0)) / questions).toFixed(1);
    };
    const sections: string[] = [];
    sections.push(
      "The protocol of issue 33, as a user calls it: `new SemanticMemoryProvider()` with defaults; per conversation one " +
        '`provider.write` of every turn as `{ id: dia_id, role: "user", content: "<speaker>: <text>", timestamp: <session date> }`; ' +
        "per question `read({ sessionId, query, limit: 50 })`; fractional recall of the evidence turns in the first 10 (R@10, %). " +
        `The three dev conversations (${dev.map((conversation) => conversation.sampleId).join(", ")}) with LoCoMo's questions, and ` +
        "the date → event questions generated from them (bench/data/README.md) as a category of their own. The seven other LoCoMo " +
        "conversations are not in the repository: the held-out measure is leave-one-conversation-out over the three — for each " +
        `conversation, the setting (of ${grid.length}: periodWeight 0 / 0.25 / 0.5 / 1 × the index's timeWeight 1 / 1.5 / 2, defaults first) ` +
        "with the best R@10 on the other two conversations' questions, LoCoMo's and generated together, is scored on it.\n\n" +
        table(
          [
            "category",
            "questions",
            "R@10 in-sample (defaults)",
            "R@10 leave-one-conversation-out",
            "R@10 before (time off)",
          ],
          [
            ...[1, 2, 3, 4, 5, GENERATED].map((category) => [
              NAMES[category]!,
              ours.perCategory.get(category)!.questions,
              r10(ours, category),
              r10(validated, category),
              r10(before, category),
            ]),
            ["LoCoMo's questions (categories 1–5)", "", dev10(ours), dev10(validated), dev10(before)],
            ["all, with the generated", ours.overall.questions, r10(ours), r10(validated), r10(before)],
          ],
        ),
    );
    sections.push(
      table(
        ["held-out conversation", "questions", "setting chosen on the other two", "R@10"],
        validated.folds.map((fold) => [fold.sampleId, fold.recall.questions, fold.chosen, percent(fold.recall)[1]!]),
      ),
    );

    // The two built-in indexes on the same protocol, with the mock embedder (hybrid ranking).
    const database = await PGlite.create({ extensions: { vector } });
    try {
      const client = {
        query: (text: string, params?: unknown[]) =>
          database.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>,
      };
      let tables = 0;
      const embedder = () => new MockEmbeddingModel({ dimensions: 256 });
      const paths = quick ? conversations.slice(0, 1) : conversations;
      const rows: (string | number)[][] = [];
      for (const [name, index] of [
        ["InMemorySemanticIndex", () => new InMemorySemanticIndex()],
        [
          "PgVectorSemanticIndex (PGlite + pgvector)",
          () => new PgVectorSemanticIndex({ client, table: `bench_${++tables}` }),
        ],
      ] as const) {
        const hybrid = await evaluate(
          paths,
          () => new SemanticMemoryProvider({ index: index(), embedder: embedder(), vectorWeight: 1 }),
          userPathMessages,
        );
        rows.push([name, r10(hybrid), ...[1, 2, 3, 4, 5, GENERATED].map((category) => r10(hybrid, category))]);
      }
      sections.push(
        "The same protocol on both built-in indexes, with `MockEmbeddingModel` (hashed trigrams, 256 dims) and the hybrid at equal weights (`vectorWeight: 1`) " +
          "ranking (each index's own lexical ranking — BM25 with its boosts in memory, PostgreSQL `ts_rank` — fused with the vectors; " +
          "the time ranking and the `after`/`before` filter are the provider's and the same on both):\n\n" +
          table(["index", "R@10", ...[1, 2, 3, 4, 5, GENERATED].map((category) => NAMES[category]!)], rows),
      );
    } finally {
      await database.close();
    }

    // Read latency at 10,000 memories: defaults against time off, interleaved read by read.
    const size = quick ? 1_000 : 10_000;
    const memories = repeated(dev, size);
    const queries = conversations.flatMap((conversation) =>
      conversation.questions.map((question) => question.question),
    );
    const dated = queries.filter((query) => /\b(?:19|20)\d\d\b/.test(query));
    const latency: string[][] = [];
    for (const [name, asked] of [
      ["LoCoMo questions and the generated ones", queries],
      ["only questions naming a year (mostly full dates)", dated],
    ] as const) {
      const providers = [await filled(memories, {}), await filled(memories, { periodWeight: 0 })];
      const [now, then] = await interleaved(providers, asked, quick ? 20 : 400);
      latency.push([name, formatSample(now!), formatSample(then!), `${(now!.median / then!.median).toFixed(2)}×`]);
    }
    sections.push(
      `Read latency, one user scope of ${size.toLocaleString("en")} memories (the dev turns on the user's path, repeated under new ids), ` +
        "`limit` 10, defaults against time off (`periodWeight: 0`, the read path before), interleaved read by read in this run. " +
        "A query that names no date costs one parse of the query. One that names a period reads the period's memories through the " +
        "index's time lookup (binary search over each memory's own time and resolved mentions; in the repeated corpus a day holds " +
        "about 190 memories), scores only those, and searches the whole scope only when they cannot fill the read:\n\n" +
        table(["queries", "read, defaults, median (p10–p90)", "read, time off", "ratio of medians"], latency) +
        `\n\nLoad average at the end: ${loadavg()[0]!.toFixed(1)} (shared machine; the ratio of runs side by side is what counts).`,
    );
    sections.push(PARAPHRASE, TERM_STUDY, DOCUMENT_SIDE);
    sections.unshift(
      `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ` +
        `Node ${process.version} (\`npm run bench -- --update recall-protocol\`, ${((performance.now() - started) / 60_000).toFixed(1)} ` +
        `minutes, load average ${loadavg()[0]!.toFixed(1)} at the end).`,
    );
    return sections.join("\n\n");
  },
};

/** `count` memories: the dev turns on the user's path, repeated under new ids, keeping their session dates. */
export function repeated(conversations: ReturnType<typeof loadLocomo>, count: number): AgentMessage[] {
  const turns = conversations.flatMap((conversation) =>
    userPathMessages(conversation).map((turn) => ({ ...turn, id: `${conversation.sampleId}/${turn.id}` })),
  );
  return Array.from({ length: count }, (_, index) => ({
    ...turns[index % turns.length]!,
    id: `${turns[index % turns.length]!.id}#${Math.floor(index / turns.length)}`,
  }));
}

export async function filled(
  memories: AgentMessage[],
  options: { periodWeight?: number },
): Promise<SemanticMemoryProvider> {
  const provider = new SemanticMemoryProvider({
    ...options,
    scope: "user",
    index: new InMemorySemanticIndex({ maxDocuments: memories.length }),
  });
  for (let start = 0; start < memories.length; start += 1_000)
    await provider.write(memories.slice(start, start + 1_000), { sessionId: `s${start % 3}`, userId: "bench" });
  return provider;
}

export async function interleaved(
  providers: SemanticMemoryProvider[],
  queries: string[],
  runs: number,
): Promise<Sample[]> {
  const times: number[][] = providers.map(() => []);
  collectGarbage();
  for (let run = -10; run < runs; run++) {
    const query = queries[(run + queries.length) % queries.length]!;
    const order = providers.map((_, which) => which);
    for (const which of run % 2 === 0 ? order : order.reverse()) {
      const started = performance.now();
      await providers[which]!.read({ userId: "bench", query, limit: 10 });
      if (run >= 0) times[which]!.push(performance.now() - started);
    }
  }
  return times.map(summarise);
}
