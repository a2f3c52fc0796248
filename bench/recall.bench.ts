import { InMemorySemanticIndex, SemanticMemoryProvider, type AgentMessage } from "agentcore";
import { formatSample, measure, table, type Benchmark } from "./harness";
import { fractionalRecall, LOCOMO_ANCHORS, loadLocomo, turnMessages, type LocomoConversation } from "./locomo";

const KS = [5, 10, 25, 50] as const;

const CATEGORIES: Record<number, string> = { 1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial" };

interface Recall {
  questions: number;
  /** Summed fractional recall at each k. */
  sums: number[];
}

/** Writes every turn of each conversation (id = dia_id), reads each question with limit 50, scores recall@k. */
async function evaluate(conversations: LocomoConversation[], makeProvider: () => SemanticMemoryProvider) {
  const perConversation = new Map<string, Recall>();
  const perCategory = new Map<number, Recall>();
  const overall: Recall = { questions: 0, sums: KS.map(() => 0) };
  for (const conversation of conversations) {
    const provider = makeProvider();
    await provider.write(turnMessages(conversation), { sessionId: conversation.sampleId });
    const mine: Recall = { questions: 0, sums: KS.map(() => 0) };
    for (const question of conversation.questions) {
      const records = await provider.read({ sessionId: conversation.sampleId, query: question.question, limit: KS.at(-1)! });
      const category = perCategory.get(question.category) ?? { questions: 0, sums: KS.map(() => 0) };
      perCategory.set(question.category, category);
      for (const target of [mine, overall, category]) target.questions++;
      KS.forEach((k, index) => {
        const recall = fractionalRecall(question.evidence, records.slice(0, k).map((record) => record.messageId));
        for (const target of [mine, overall, category]) target.sums[index]! += recall;
      });
    }
    perConversation.set(conversation.sampleId, mine);
  }
  return { perConversation, perCategory, overall };
}

const percent = (recall: Recall) => recall.sums.map((sum) => (recall.questions ? ((100 * sum) / recall.questions).toFixed(1) : "–"));

/** `count` memories made by repeating the turns of the conversations under new ids. */
function synthesise(conversations: LocomoConversation[], count: number): AgentMessage[] {
  const turns = conversations.flatMap(turnMessages);
  return Array.from({ length: count }, (_, index) => {
    const turn = turns[index % turns.length]!;
    return { ...turn, id: `${turn.id}#${Math.floor(index / turns.length)}`, timestamp: index };
  });
}

export const benchmark: Benchmark = {
  title: "Semantic recall on LoCoMo (built-in lexical retrieval, no model)",
  async run({ quick }) {
    const conversations = loadLocomo();
    const questions = conversations.reduce((sum, conversation) => sum + conversation.questions.length, 0);
    const turns = conversations.reduce((sum, conversation) => sum + conversation.turns.length, 0);
    const ours = await evaluate(conversations, () => new SemanticMemoryProvider());
    const plain = await evaluate(conversations, () => new SemanticMemoryProvider({ index: new InMemorySemanticIndex({ contextWeight: 0 }) }));

    const sections: string[] = [];
    sections.push(
      `${conversations.length} conversations (${conversations.map((conversation) => conversation.sampleId).join(", ")}), ${turns} turns, ` +
        `${questions} questions with evidence. Each turn is written as a message whose id is its \`dia_id\` and whose content is ` +
        "`<speaker>: <text>` (plus `[shares <caption>]` for a shared photo); each question is read with `limit` 50 in the " +
        "conversation's session; fractional recall@k over the evidence turns, averaged over questions (%).",
    );
    sections.push(
      table(
        ["retriever", "R@5", "R@10", "R@25", "R@50"],
        [
          ["**SemanticMemoryProvider** (BM25 + neighbour context, defaults)", ...percent(ours.overall)],
          ["same index, neighbour context off (plain BM25)", ...percent(plain.overall)],
          ...Object.entries(LOCOMO_ANCHORS).map(([name, anchor]) => [
            `published ${name}, all 10 conversations`,
            ...KS.map((k) => anchor[k].toFixed(1)),
          ]),
        ],
      ),
    );
    sections.push(
      table(
        ["conversation", "questions", "R@5", "R@10", "R@25", "R@50"],
        [...ours.perConversation].map(([id, recall]) => [id, recall.questions, ...percent(recall)]),
      ),
    );
    sections.push(
      table(
        ["category", "questions", "R@5", "R@10", "R@25", "R@50"],
        [...ours.perCategory].sort(([left], [right]) => left - right).map(([category, recall]) => [CATEGORIES[category] ?? String(category), recall.questions, ...percent(recall)]),
      ),
    );

    const latencyRows: string[][] = [];
    const queries = conversations.flatMap((conversation) => conversation.questions.map((question) => question.question));
    for (const size of quick ? [1_000] : [1_000, 10_000, 100_000]) {
      // The index holds exactly `size` memories (its default bound, 10,000, would evict past it).
      const provider = new SemanticMemoryProvider({ scope: "user", index: new InMemorySemanticIndex({ maxDocuments: size }) });
      const memories = synthesise(conversations, size);
      const writeStarted = performance.now();
      for (let start = 0; start < memories.length; start += 1_000) {
        await provider.write(memories.slice(start, start + 1_000), { sessionId: `s${start % 3}`, userId: "bench" });
      }
      const writeMs = performance.now() - writeStarted;
      let next = 0;
      const sample = await measure(() => provider.read({ userId: "bench", query: queries[next++ % queries.length]!, limit: 10 }), {
        runs: quick ? 20 : 200,
      });
      latencyRows.push([size.toLocaleString("en"), formatSample(sample), `${((writeMs * 1000) / size).toFixed(1)} µs`]);
    }
    sections.push(
      "Read latency, one user scope holding N memories (LoCoMo turns repeated under new ids), `limit` 10, a different LoCoMo question each read:\n\n" +
        table(["memories", "read, median (p10–p90)", "write, per memory"], latencyRows),
    );
    return sections.join("\n\n");
  },
};
