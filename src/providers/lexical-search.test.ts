import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "./in-memory-semantic-index";
import type { ScoredDocument, SemanticDocument, SemanticFilter } from "./semantic-index";

// A small vocabulary, speakers and repeated contents, so scores tie often and many documents
// match the same terms: the cases where a pruning bug would show.
// "yesterday" and "May" mention a time (boosted when a query asks when); "rome" and "oslo" are
// rare, so the first hits' rare terms are followed.
const WORDS = [
  "camping",
  "lake",
  "paint",
  "piano",
  "tea",
  "berlin",
  "dog",
  "run",
  "book",
  "song",
  "sunrise",
  "pottery",
  "yesterday",
  "May",
  "rome",
  "oslo",
];
const SPEAKERS = ["Caroline", "Melanie", "John"];

interface Corpus {
  documents: {
    speaker: number;
    words: number[];
    rare: number;
    question: boolean;
    session: number;
    user: number;
    tag: boolean;
  }[];
  deletions: number[];
  queries: { speaker: number; words: number[]; when: boolean }[];
}

const corpusArbitrary: fc.Arbitrary<Corpus> = fc.record({
  documents: fc.array(
    fc.record({
      speaker: fc.integer({ min: -1, max: SPEAKERS.length - 1 }),
      words: fc.array(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 0, maxLength: 6 }),
      rare: fc.integer({ min: -1, max: 9 }),
      question: fc.boolean(),
      session: fc.integer({ min: 0, max: 2 }),
      user: fc.integer({ min: 0, max: 1 }),
      tag: fc.boolean(),
    }),
    { minLength: 1, maxLength: 120 },
  ),
  deletions: fc.array(fc.nat(), { maxLength: 10 }),
  queries: fc.array(
    fc.record({
      speaker: fc.integer({ min: -1, max: SPEAKERS.length - 1 }),
      words: fc.array(fc.integer({ min: 0, max: WORDS.length - 1 }), { minLength: 1, maxLength: 4 }),
      when: fc.boolean(),
    }),
    { minLength: 1, maxLength: 6 },
  ),
});

const optionsArbitrary: fc.Arbitrary<InMemorySemanticIndexOptions> = fc.record({
  coordination: fc.constantFrom(0, 0.5, 1, 2),
  questionWeight: fc.constantFrom(0.5, 1, 2, 3),
  speakerWeight: fc.constantFrom(0, 0.5, 1, 1.5, 3),
  contextWeight: fc.constantFrom(0, 0.3, 0.5, 1),
  contextWindow: fc.constantFrom(0, 1, 2, 3),
  b: fc.constantFrom(0, 0.75, 1),
  k1: fc.constantFrom(0, 1.2, 2),
  timeWeight: fc.constantFrom(0, 0.5, 1, 1.5, 3),
  followWeight: fc.constantFrom(0, 0.3, 1),
});

async function build(corpus: Corpus, options: InMemorySemanticIndexOptions): Promise<InMemorySemanticIndex> {
  const index = new InMemorySemanticIndex({ ...options, maxDocuments: Infinity });
  const documents: SemanticDocument[] = corpus.documents.map((document, position) => {
    // A rare word of its own (in a few documents only), the kind following picks up.
    const rare = document.rare >= 0 ? ` place${document.rare}` : "";
    const text = document.words.map((word) => WORDS[word]).join(" ") + rare + (document.question ? "?" : ".");
    return {
      id: `d${position}`,
      // Documents sharing a message id in a session replace each other in place, as rewrites do.
      messageId: `m${position % 97}`,
      content: document.speaker >= 0 ? `${SPEAKERS[document.speaker]}: ${text}` : text,
      sessionId: `s${document.session}`,
      userId: `u${document.user}`,
      createdAt: position,
      tags: document.tag ? ["t"] : [],
    };
  });
  // Added in a few batches, interleaving sessions, so neighbours are not neighbouring ordinals.
  for (let start = 0; start < documents.length; start += 17) await index.add(documents.slice(start, start + 17));
  for (const deletion of corpus.deletions)
    await index.delete({
      sessionId: `s${deletion % 3}`,
      ...(deletion % 2 ? { tags: ["t"] } : { userId: `u${deletion % 5 === 0 ? 1 : 0}` }),
    });
  return index;
}

const shape = (hits: ScoredDocument[]) => hits.map((hit) => [hit.document.id, hit.score]);
const FILTERS: SemanticFilter[] = [
  {},
  { sessionId: "s0" },
  { userId: "u1" },
  { tags: ["t"] },
  { sessionId: "s1", userId: "u0" },
];

describe("pruned lexical search", () => {
  it("returns exactly what exhaustive scoring returns: documents, scores, order and ties", async () => {
    let compared = 0;
    let nonEmpty = 0;
    let tied = 0;
    let followedOrBoosted = 0;
    await fc.assert(
      fc.asyncProperty(corpusArbitrary, optionsArbitrary, async (corpus, options) => {
        const pruned = await build(corpus, { ...options, pruning: true });
        const exhaustive = await build(corpus, { ...options, pruning: false });
        const without = await build(corpus, { ...options, followWeight: 0, timeWeight: 1 });
        for (const query of corpus.queries) {
          const text = `${query.when ? "When" : "What"} about ${query.speaker >= 0 ? SPEAKERS[query.speaker] : ""} ${query.words.map((word) => WORDS[word]).join(" ")}?`;
          for (const filter of FILTERS) {
            for (const limit of [1, 3, 10]) {
              const expected = await exhaustive.searchText(text, filter, limit);
              expect(shape(await pruned.searchText(text, filter, limit))).toEqual(shape(expected));
              compared++;
              if (expected.length > 0) nonEmpty++;
              if (expected.some((hit, position) => position > 0 && hit.score === expected[position - 1]!.score)) tied++;
              if (
                JSON.stringify(shape(await without.searchText(text, filter, limit))) !== JSON.stringify(shape(expected))
              )
                followedOrBoosted++;
            }
          }
        }
      }),
      { numRuns: 150, seed: 2026 },
    );
    // The generated cases exercise what they are meant to: results, ties among them, and
    // rankings that following the first hits or the time boost changed.
    expect(nonEmpty).toBeGreaterThan(compared / 3);
    expect(tied).toBeGreaterThan(compared / 50);
    expect(followedOrBoosted).toBeGreaterThan(compared / 20);
  });

  it("prunes: on a large index it scores a fraction of the postings and still agrees", async () => {
    const documents: SemanticDocument[] = [];
    for (let position = 0; position < 20_000; position++) {
      const common = position % 2 === 0 ? "Caroline: I went for a run" : "Melanie: nice run";
      const rare = position % 997 === 0 ? " by the lake at sunrise" : "";
      documents.push({ id: `d${position}`, content: common + rare, sessionId: "s", createdAt: position, tags: ["t"] });
    }
    const pruned = new InMemorySemanticIndex({ maxDocuments: Infinity });
    const exhaustive = new InMemorySemanticIndex({ maxDocuments: Infinity, pruning: false });
    await pruned.add(documents);
    await exhaustive.add(documents);
    // Counts the documents a search checks against the filter: each once, when the search first
    // reaches it. The scope is compared as codes; a tags filter is checked on the document itself.
    const run = async (index: InMemorySemanticIndex, query: string) => {
      let count = 0;
      const filter = new Proxy(
        { sessionId: "s", tags: ["t"] },
        { get: (target, key) => (key === "userId" && count++, Reflect.get(target, key)) },
      );
      return { hits: shape(await index.searchText(query, filter, 10)), count };
    };
    const query = "Did Caroline run by the lake at sunrise?";
    const fast = await run(pruned, query);
    const slow = await run(exhaustive, query);
    expect(fast.hits).toEqual(slow.hits);
    expect(fast.hits.length).toBe(10);
    expect(slow.count).toBeGreaterThan(10_000);
    expect(fast.count).toBeLessThan(slow.count / 10);
  });
});
