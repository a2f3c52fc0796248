import { loadavg } from "node:os";
import { SemanticMemoryProvider, type AgentMessage } from "agentcore";
import { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "agentcore/semantic";
import { MockEmbeddingModel } from "agentcore/testing";
import { collectGarbage, formatSample, summarise, table, type Benchmark, type Sample } from "./harness";
import { LOCOMO_ANCHORS, loadLocomo, turnMessages, type LocomoConversation } from "./locomo";
import { CATEGORIES, evaluate, KS, leaveOneOut, percent, RANKING_GRID } from "./recall-eval";
import { evaluateReranked, REJECTED, STUDY } from "./recall-study";

/** The ranking before coordination, question lending, the speaker and time boosts and following (BM25 + neighbour context). */
const BEFORE: InMemorySemanticIndexOptions = {
  coordination: 0,
  questionWeight: 1,
  speakerWeight: 1,
  timeWeight: 1,
  followWeight: 0,
};
/** The defaults before following the first hits and the time boost (issue 23). */
const PREVIOUS: InMemorySemanticIndexOptions = { followWeight: 0, timeWeight: 1 };

/** `count` distinct memories made by repeating the turns of the conversations under new ids. */
export function synthesise(conversations: LocomoConversation[], count: number, distinctNames = false): AgentMessage[] {
  // dia_ids repeat across conversations: prefix them, or a rewrite would replace the memory in place.
  const turns = conversations.flatMap((conversation) =>
    turnMessages(conversation).map((turn) => ({ ...turn, id: `${conversation.sampleId}/${turn.id}` })),
  );
  return Array.from({ length: count }, (_, index) => {
    const turn = turns[index % turns.length]!;
    const copy = Math.floor(index / turns.length);
    // With distinct names, each copy's capitalised words (names, places) get a suffix of their
    // own, as if told by other people, so they stay rare and following the first hits happens.
    const content = distinctNames
      ? String(turn.content).replace(/\b(\p{Lu}\p{Ll}+)/gu, `$1${String.fromCharCode(97 + (copy % 26))}`)
      : turn.content;
    return { ...turn, content: content as string, id: `${turn.id}#${copy}`, timestamp: index };
  });
}

/** Live heap and array buffers after a full collection (needs --expose-gc, as `npm run bench` runs). */
function heapBytes(): number {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

const withIndex = (options: InMemorySemanticIndexOptions) => () =>
  new SemanticMemoryProvider({ index: new InMemorySemanticIndex(options) });

export const benchmark: Benchmark = {
  title: "Semantic recall on LoCoMo (built-in lexical retrieval, no model)",
  async run({ quick }) {
    const conversations = loadLocomo();
    const questions = conversations.reduce((sum, conversation) => sum + conversation.questions.length, 0);
    const turns = conversations.reduce((sum, conversation) => sum + conversation.turns.length, 0);
    const ours = await evaluate(conversations, () => new SemanticMemoryProvider());
    const before = await evaluate(conversations, withIndex(BEFORE));
    const coordinationOnly = await evaluate(conversations, withIndex({ ...BEFORE, coordination: 1 }));
    const questionOnly = await evaluate(conversations, withIndex({ ...BEFORE, questionWeight: 2 }));
    const speakerOnly = await evaluate(conversations, withIndex({ ...BEFORE, speakerWeight: 1.5 }));
    const noSpeaker = await evaluate(conversations, withIndex({ speakerWeight: 1 }));
    const previous = await evaluate(conversations, withIndex(PREVIOUS));
    const noFollow = await evaluate(conversations, withIndex({ followWeight: 0 }));
    const noTime = await evaluate(conversations, withIndex({ timeWeight: 1 }));
    const plain = await evaluate(conversations, withIndex({ ...BEFORE, contextWeight: 0 }));
    const mock = () => new MockEmbeddingModel({ dimensions: 256 });
    // Equal weights, as the published figures were measured (bench/recall-hybrid.bench.ts weighs them).
    const hybrid = await evaluate(
      conversations,
      () => new SemanticMemoryProvider({ embedder: mock(), vectorWeight: 1 }),
    );
    const vectorOnly = await evaluate(
      conversations,
      () => new SemanticMemoryProvider({ embedder: mock(), ranking: "vector" }),
    );
    const grid = quick ? RANKING_GRID.slice(0, 2) : RANKING_GRID;
    const validated = await leaveOneOut(conversations, grid);

    const sections: string[] = [];
    sections.push(
      `${conversations.length} conversations (${conversations.map((conversation) => conversation.sampleId).join(", ")}), ${turns} turns, ` +
        `${questions} questions with evidence. Each turn is written as a message whose id is its \`dia_id\`, whose content is ` +
        "`<speaker>: <text>` (plus `[shares <caption>]` for a shared photo) and whose timestamp is its session's date-time " +
        "(plus a minute a turn); each question is read with `limit` 50 in the conversation's session; fractional recall@k over " +
        "the evidence turns, averaged over questions (%).",
    );
    sections.push(
      table(
        ["retriever", "R@5", "R@10", "R@25", "R@50"],
        [
          [
            "**SemanticMemoryProvider**, defaults (BM25 + neighbour context + coordination + question lending + speaker boost + time boost + following the first hits)",
            ...percent(ours.overall),
          ],
          [
            "same, validated leave-one-conversation-out (settings chosen on the other two conversations)",
            ...percent(validated.overall),
          ],
          ["same, following the first hits off (`followWeight: 0`)", ...percent(noFollow.overall)],
          ["same, time boost off (`timeWeight: 1`)", ...percent(noTime.overall)],
          ["previous defaults: both off (`followWeight: 0, timeWeight: 1`)", ...percent(previous.overall)],
          ["same, speaker boost off (`speakerWeight: 1`)", ...percent(noSpeaker.overall)],
          [
            "before: BM25 + neighbour context (`coordination: 0, questionWeight: 1, speakerWeight: 1, timeWeight: 1, followWeight: 0`)",
            ...percent(before.overall),
          ],
          ["before + coordination alone (`coordination: 1`)", ...percent(coordinationOnly.overall)],
          ["before + question lending alone (`questionWeight: 2`)", ...percent(questionOnly.overall)],
          ["before + speaker boost alone (`speakerWeight: 1.5`)", ...percent(speakerOnly.overall)],
          ["plain BM25 (before, neighbour context off)", ...percent(plain.overall)],
          [
            "defaults + `MockEmbeddingModel` (hashed trigrams, 256 dims), hybrid ranking (reciprocal-rank fusion, equal weights: `vectorWeight: 1`)",
            ...percent(hybrid.overall),
          ],
          ['`MockEmbeddingModel` alone (`ranking: "vector"`)', ...percent(vectorOnly.overall)],
          ...Object.entries(LOCOMO_ANCHORS).map(([name, anchor]) => [
            `published ${name}, all 10 conversations`,
            ...KS.map((k) => anchor[k].toFixed(1)),
          ]),
        ],
      ),
    );
    sections.push(
      `Leave-one-conversation-out: ${grid.length} settings (of the grid of ${RANKING_GRID.length}: coordination 0 / 0.5 / 1 / 2 × questionWeight 1 / 2 / 3 × ` +
        "speakerWeight 1 / 1.5 / 2 × followWeight 0 / 0.3 × timeWeight 1 / 1.5, plus followWeight 0.6 and timeWeight 2 alone, defaults first); " +
        "for each conversation the setting with the best R@10 on the other two is scored on it.\n\n" +
        table(
          ["held-out conversation", "questions", "setting chosen on the others", "R@10"],
          validated.folds.map((fold) => [fold.sampleId, fold.recall.questions, fold.chosen, percent(fold.recall)[1]!]),
        ),
    );
    sections.push(
      table(
        ["conversation", "questions", "R@5", "R@10", "R@25", "R@50", "R@10 previous defaults", "R@10 before"],
        [...ours.perConversation].map(([id, recall]) => [
          id,
          recall.questions,
          ...percent(recall),
          percent(previous.perConversation.get(id)!)[1]!,
          percent(before.perConversation.get(id)!)[1]!,
        ]),
      ),
    );
    sections.push(
      table(
        [
          "category",
          "questions",
          "R@5",
          "R@10",
          "R@25",
          "R@50",
          "R@10 leave-one-out",
          "R@10 previous defaults",
          "R@10 before",
          "R@10 hybrid (mock)",
          "R@10 mock vectors alone",
        ],
        [...ours.perCategory]
          .sort(([left], [right]) => left - right)
          .map(([category, recall]) => [
            CATEGORIES[category] ?? String(category),
            recall.questions,
            ...percent(recall),
            percent(validated.perCategory.get(category)!)[1]!,
            percent(previous.perCategory.get(category)!)[1]!,
            percent(before.perCategory.get(category)!)[1]!,
            percent(hybrid.perCategory.get(category)!)[1]!,
            percent(vectorOnly.perCategory.get(category)!)[1]!,
          ]),
      ),
    );

    const studied = [];
    for (const idea of STUDY)
      studied.push({ name: idea.name, evaluation: await evaluateReranked(conversations, idea.rerank) });
    const r10 = (
      evaluation: {
        overall: { questions: number; sums: number[] };
        perCategory: Map<number, { questions: number; sums: number[] }>;
      },
      category?: number,
    ) => percent(category === undefined ? evaluation.overall : evaluation.perCategory.get(category)!)[1]!;
    sections.push(
      "Ideas studied on the same protocol, each alone on top of the defaults (R@10; not in the default ranking):\n\n" +
        table(
          ["idea", "R@10", "multi-hop", "temporal", "open-domain", "single-hop", "adversarial"],
          [
            ["defaults", r10(ours), ...[1, 2, 3, 4, 5].map((category) => r10(ours, category))],
            [
              "(for reference: following the first hits off, `followWeight: 0`)",
              r10(noFollow),
              ...[1, 2, 3, 4, 5].map((category) => r10(noFollow, category)),
            ],
            [
              "(for reference: time boost off, `timeWeight: 1`)",
              r10(noTime),
              ...[1, 2, 3, 4, 5].map((category) => r10(noTime, category)),
            ],
            ...studied.map(({ name, evaluation }) => [
              name,
              r10(evaluation),
              ...[1, 2, 3, 4, 5].map((category) => r10(evaluation, category)),
            ]),
          ],
        ),
    );

    sections.push(
      "Ideas for multi-hop questions studied with scratch scripts on the same protocol and left out (R@10 overall; multi-hop / temporal / open-domain / single-hop / adversarial), " +
        "against the defaults of the time (82.3; 44.2 / 95.6 / 30.3 / 90.0 / 92.0; `REJECTED` in bench/recall-study.ts). Only the first was timed at 10,000 memories; " +
        "the other re-rankings read as many results or more, and the word vectors add a scan of the index's vocabulary per query word and the load above, so none reads faster:\n\n" +
        table(["idea", "R@10"], REJECTED),
    );

    const latencyRows: string[][] = [];
    const queries = conversations.flatMap((conversation) =>
      conversation.questions.map((question) => question.question),
    );
    const runs = quick ? 20 : 200;
    for (const size of quick ? [1_000] : [1_000, 10_000, 100_000]) {
      const memories = synthesise(conversations, size);
      const providers: SemanticMemoryProvider[] = [];
      let writeCell = "";
      let heapCell = "";
      for (const options of [{}, { pruning: false }]) {
        const heapBefore = heapBytes();
        const writeStarted = performance.now();
        providers.push(await filled(memories, options));
        writeCell ||= `${(((performance.now() - writeStarted) * 1000) / size).toFixed(1)} µs`;
        // The provider's heap (index and its documents; the messages written are not counted).
        heapCell ||= `${((heapBytes() - heapBefore) / size).toFixed(0)} B`;
      }
      const [after, before] = await interleaved(providers, queries, runs);
      latencyRows.push([
        size.toLocaleString("en"),
        formatSample(after!),
        formatSample(before!),
        `${(after!.median / before!.median).toFixed(2)}×`,
        writeCell,
        heapCell,
      ]);
    }
    sections.push(
      "Read latency, one user scope holding N distinct memories (LoCoMo turns repeated under new ids), `limit` 10, a different " +
        "LoCoMo question each read; the default pruned search (MaxScore) against scoring every posting (`pruning: false`, the " +
        "search before; same results), interleaved read by read in this run. Heap per memory: what the default provider holds " +
        "(index and its documents, not the messages written) after a full collection:\n\n" +
        table(
          [
            "memories",
            "read, pruned (default), median (p10–p90)",
            "read, exhaustive",
            "ratio of medians",
            "write, per memory",
            "heap, per memory",
          ],
          latencyRows,
        ),
    );

    // What following the first hits and the time boost cost. In the repeated corpus every term is
    // in 7 or more memories, too many to follow; with distinct names per copy, names and places stay rare.
    const costRows: string[][] = [];
    const size = quick ? 1_000 : 10_000;
    for (const [name, distinct] of [
      ["LoCoMo turns repeated", false],
      ["repeated, names made distinct per copy", true],
    ] as const) {
      const memories = synthesise(conversations, size, distinct);
      const providers = [await filled(memories, {}), await filled(memories, PREVIOUS)];
      const [now, then] = await interleaved(providers, queries, quick ? 20 : 400);
      costRows.push([
        `${size.toLocaleString("en")}, ${name}`,
        formatSample(now!),
        formatSample(then!),
        `${(now!.median / then!.median).toFixed(2)}×`,
      ]);
    }
    sections.push(
      "The cost of the time boost and of following the first hits: the defaults against the previous defaults " +
        "(`followWeight: 0, timeWeight: 1`), same protocol, interleaved read by read in this run. Following runs only when the " +
        `first hits hold terms in 2 to 5 memories; in the repeated corpus (each turn there ${Math.floor(size / turns)} times or more) ` +
        "few are, so the second corpus gives each copy's capitalised words (names, places) a suffix of its own:\n\n" +
        table(
          ["memories", "read, defaults, median (p10–p90)", "read, previous defaults", "ratio of medians"],
          costRows,
        ) +
        `\n\nLoad average at the end of this section: ${loadavg()[0]!.toFixed(1)} (the machine is shared with other work; the ratios of runs measured side by side are what count).`,
    );
    return sections.join("\n\n");
  },
};

/** A provider whose index holds exactly `memories` (its default bound, 10,000, would evict past it), in one user scope. */
async function filled(
  memories: AgentMessage[],
  options: InMemorySemanticIndexOptions,
): Promise<SemanticMemoryProvider> {
  const provider = new SemanticMemoryProvider({
    scope: "user",
    index: new InMemorySemanticIndex({ ...options, maxDocuments: memories.length }),
  });
  for (let start = 0; start < memories.length; start += 1_000) {
    await provider.write(memories.slice(start, start + 1_000), { sessionId: `s${start % 3}`, userId: "bench" });
  }
  return provider;
}

/** Read latency of each provider, `limit` 10, the same question for all and the order alternating read by read, so all see the same load. */
async function interleaved(providers: SemanticMemoryProvider[], queries: string[], runs: number): Promise<Sample[]> {
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
