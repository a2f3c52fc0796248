import { describe, expect, it } from "vitest";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";
import type { SemanticDocument } from "./semantic-index";

const document = (index: number, content = `memory number ${index} about topic${index}`): SemanticDocument => ({
  id: `d${index}`,
  content,
  sessionId: "s",
  messageId: `m${index}`,
  createdAt: index,
  tags: [],
});

const ids = async (index: InMemorySemanticIndex) => (await index.list({})).map((entry) => entry.id);

describe("InMemorySemanticIndex bound", () => {
  it("keeps at most maxDocuments, evicting the oldest first and telling onEvict", async () => {
    const evicted: string[] = [];
    const index = new InMemorySemanticIndex({
      maxDocuments: 3,
      onEvict: (documents) => evicted.push(...documents.map((entry) => entry.id)),
    });
    for (let number = 0; number < 5; number++) await index.add([document(number)]);
    expect(index.size).toBe(3);
    expect(await ids(index)).toEqual(["d2", "d3", "d4"]);
    expect(evicted).toEqual(["d0", "d1"]);
    // Evicted documents are gone from search and from their session's neighbour chain.
    expect(await index.searchText("topic0", {}, 5)).toEqual([]);
    expect((await index.neighbours("d2", 2, 0)).before).toEqual([]);
    expect((await index.neighbours("d3", 2, 2)).before.map((entry) => entry.id)).toEqual(["d2"]);
  });

  it("least-recently-recalled keeps what searches return", async () => {
    const index = new InMemorySemanticIndex({ maxDocuments: 3, eviction: "least-recently-recalled" });
    await index.add([document(0), document(1), document(2)]);
    expect((await index.searchText("topic0", {}, 1)).map((hit) => hit.document.id)).toEqual(["d0"]);
    await index.add([document(3)]);
    // d1 was added before d2 and never recalled: it goes; d0 stays because it was just recalled.
    expect(await ids(index)).toEqual(["d0", "d2", "d3"]);
    // Two more: the two least recently used go, d2 (added before the search) and then d0.
    await index.add([document(4), document(5)]);
    expect(await ids(index)).toEqual(["d3", "d4", "d5"]);
  });

  it("stays bounded and correct over many evictions (ordinals renumbered, search still exact)", async () => {
    const index = new InMemorySemanticIndex({ maxDocuments: 100, contextWeight: 0 });
    for (let number = 0; number < 5_000; number++) await index.add([document(number)]);
    expect(index.size).toBe(100);
    const entries = (index as unknown as { entries: unknown[] }).entries;
    expect(entries.length).toBeLessThanOrEqual(2 * 100 + 1024);
    expect(await ids(index)).toEqual(Array.from({ length: 100 }, (_, offset) => `d${4_900 + offset}`));
    expect((await index.searchText("topic4950", {}, 3)).map((hit) => hit.document.id)).toEqual(["d4950"]);
    expect((await index.neighbours("d4950", 1, 1)).after.map((entry) => entry.id)).toEqual(["d4951"]);
  });

  it("refuses a bad bound or policy", () => {
    expect(() => new InMemorySemanticIndex({ maxDocuments: 0 })).toThrow(
      /maxDocuments must be a positive integer or Infinity/,
    );
    expect(() => new InMemorySemanticIndex({ eviction: "random" as never })).toThrow(/eviction must be/);
  });
});

describe("InMemorySemanticIndex ranking", () => {
  const session = (...contents: string[]) => contents.map((content, index) => document(index, content));
  const ranked = async (
    options: ConstructorParameters<typeof InMemorySemanticIndex>[0],
    contents: string[],
    query: string,
  ) => {
    const index = new InMemorySemanticIndex(options);
    await index.add(session(...contents));
    return (await index.searchText(query, {}, 10)).map((hit) => hit.document.id);
  };

  it("coordination favours a turn matching more of the query's rare terms", async () => {
    const contents = [
      "piano piano piano",
      "zebra piano concert tonight downtown with friends",
      "zebra",
      "filler",
      "more filler",
      "zebra",
    ];
    // Plain BM25: the turn repeating one word wins; with coordination, the turn holding both terms does.
    expect((await ranked({ coordination: 0, contextWeight: 0 }, contents, "zebra piano"))[0]).toBe("d0");
    expect((await ranked({ contextWeight: 0 }, contents, "zebra piano"))[0]).toBe("d1");
  });

  it("a question turn lends more to the turns after it, which answer it", async () => {
    const contents = ["Where did you go camping?", "We went to the lake.", "filler one", "filler two", "Camping!"];
    const order = async (questionWeight: number) => {
      const ids = await ranked({ questionWeight, coordination: 0 }, contents, "camping");
      return ids.indexOf("d1") < ids.indexOf("d3");
    };
    // d1 answers the question d0; d3 only sits before another hit, which outscores d0 alone.
    expect(await order(1)).toBe(false);
    expect(await order(2)).toBe(true);
  });

  it("favours turns spoken by the person the query names", async () => {
    const contents = ["Caroline: Melanie paints", "Melanie: I paint every weekend at home"];
    expect((await ranked({ speakerWeight: 1, contextWeight: 0 }, contents, "What does Melanie paint?"))[0]).toBe("d0");
    expect((await ranked({ contextWeight: 0 }, contents, "What does Melanie paint?"))[0]).toBe("d1");
  });

  it("favours turns that mention a time when the query asks when", async () => {
    const contents = ["Melanie: camping by the lake", "Melanie: we went camping with the kids yesterday"];
    expect((await ranked({ timeWeight: 1, contextWeight: 0 }, contents, "When did Melanie go camping?"))[0]).toBe("d0");
    expect((await ranked({ contextWeight: 0 }, contents, "When did Melanie go camping?"))[0]).toBe("d1");
    // Only when the query asks when.
    expect((await ranked({ contextWeight: 0 }, contents, "Where did Melanie go camping?"))[0]).toBe("d0");
  });

  it("follows the rare terms of the first hits to the turns that share them", async () => {
    const contents = [
      "Caroline: I moved here from my home country four years ago",
      "Melanie: did you move the couch",
      "Caroline: filler one",
      "Caroline: filler two",
      "Caroline: grandma gave me this necklace in Sweden, my home country",
    ];
    // Without following, the necklace turn only matches the speaker, like the fillers before it.
    expect(
      (await ranked({ followWeight: 0, contextWeight: 0 }, contents, "Where did Caroline move from?")).indexOf("d4"),
    ).toBe(4);
    // The first hit's rare terms ("home", "country") lead to it.
    expect((await ranked({ contextWeight: 0 }, contents, "Where did Caroline move from?")).indexOf("d4")).toBeLessThan(
      3,
    );
  });

  it("refuses negative ranking settings", () => {
    expect(() => new InMemorySemanticIndex({ coordination: -1 })).toThrow(/coordination must be/);
    expect(() => new InMemorySemanticIndex({ speakerWeight: Number.NaN })).toThrow(/speakerWeight must be/);
    expect(() => new InMemorySemanticIndex({ followWeight: -0.3 })).toThrow(/followWeight must be/);
    expect(() => new InMemorySemanticIndex({ timeWeight: Infinity })).toThrow(/timeWeight must be/);
  });
});
