import { describe, expect, it } from "vitest";
import { InMemorySemanticIndex, SemanticMemoryProvider } from "../src/index";
import { fractionalRecall, loadLocomo, normaliseEvidence, turnMessages } from "../bench/locomo";

describe("LoCoMo evidence ids", () => {
  it("normalises the malformed ids the data holds", () => {
    expect(normaliseEvidence(["D8:6; D9:17"])).toEqual(["D8:6", "D9:17"]);
    expect(normaliseEvidence(["D:11:26"])).toEqual(["D11:26"]);
    expect(normaliseEvidence(["D30:05", "D30:5"])).toEqual(["D30:5"]);
    expect(normaliseEvidence([])).toEqual([]);
  });
});

// The data is in the repository (bench/data, CC BY-NC, not in the package), so this always runs.
describe("recall quality on a LoCoMo slice", () => {
  async function recallAt10(conversationId: string, provider: SemanticMemoryProvider): Promise<number> {
    const conversation = loadLocomo().find((sample) => sample.sampleId === conversationId)!;
    await provider.write(turnMessages(conversation), { sessionId: conversationId });
    let sum = 0;
    for (const question of conversation.questions) {
      const records = await provider.read({ sessionId: conversationId, query: question.question, limit: 10 });
      sum += fractionalRecall(question.evidence, records.map((record) => record.messageId));
    }
    return (100 * sum) / conversation.questions.length;
  }

  it("finds the evidence turns of conv-30 well above chance (bench: R@10 ≈ 80)", async () => {
    const recall = await recallAt10("conv-30", new SemanticMemoryProvider());
    expect(recall).toBeGreaterThan(65);
  });

  it("neighbour context beats plain BM25 on the same slice", async () => {
    const contextual = await recallAt10("conv-30", new SemanticMemoryProvider());
    const plain = await recallAt10("conv-30", new SemanticMemoryProvider({ index: new InMemorySemanticIndex({ contextWeight: 0 }) }));
    expect(plain).toBeGreaterThan(40);
    expect(contextual).toBeGreaterThan(plain);
  });
});
