import { describe, expect, it } from "vitest";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";
import { inWindow, type SemanticDocument } from "./semantic-index";
import { TimeIndex } from "./time-index";

const DAY = 86_400_000;
const YEAR = 365 * DAY;
const START = Date.UTC(2022, 0, 1);

/** A deterministic pseudo-random sequence (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = ["bowling", "painting", "race", "shelter", "pottery", "camping", "guitar", "adoption"];
const LENGTHS = [0, DAY / 2, DAY, 3 * DAY, 30 * DAY, 90 * DAY, YEAR, 3 * YEAR, 10 * YEAR];

/** Documents over two years, a minute to a few days apart, some mentioning spans of every length class. */
function corpus(count: number, next: () => number): SemanticDocument[] {
  let time = START;
  return Array.from({ length: count }, (_, index) => {
    time += Math.floor(next() * 3 * DAY);
    const mentions: number[] = [];
    const spans = next() < 0.4 ? 1 + Math.floor(next() * 3) : 0;
    for (let span = 0; span < spans; span++) {
      const length = LENGTHS[Math.floor(next() * LENGTHS.length)]!;
      const start = time - Math.floor(next() * 2 * YEAR);
      mentions.push(start, start + length);
    }
    const words = Array.from({ length: 4 }, () => WORDS[Math.floor(next() * WORDS.length)]!);
    return {
      id: `d${index}`,
      content: `${next() < 0.5 ? "Caroline" : "Melanie"}: ${words.join(" ")}`,
      sessionId: `s${index % 3}`,
      messageId: `m${index}`,
      createdAt: time,
      tags: [],
      ...(mentions.length ? { mentions } : {}),
    };
  });
}

/** Windows from a few hours to years, some open-ended, over the corpus's time and around it. */
function windows(count: number, next: () => number): { after?: number; before?: number }[] {
  return Array.from({ length: count }, () => {
    const after = START - YEAR + Math.floor(next() * 4 * YEAR);
    const length = LENGTHS[1 + Math.floor(next() * (LENGTHS.length - 1))]! || DAY;
    const shape = next();
    return shape < 0.1 ? { after } : shape < 0.2 ? { before: after } : { after, before: after + length };
  });
}

describe("TimeIndex", () => {
  it("finds exactly the documents whose own time or mentions meet a window, after removals and rebuilds", () => {
    const next = random(7);
    const documents = corpus(3_000, next);
    const times = new TimeIndex();
    // Added out of order, as replaced or late-written memories are.
    const order = documents.map((_, ordinal) => ordinal).sort(() => next() - 0.5);
    for (const ordinal of order) times.add(ordinal, documents[ordinal]!.createdAt, documents[ordinal]!.mentions);
    const live = new Set(order);
    const check = () => {
      for (const { after = -Infinity, before = Infinity } of windows(200, next)) {
        const found = new Set(times.find(after, before, Infinity)!.filter((ordinal) => live.has(ordinal)));
        const expected = [...live].filter((ordinal) => inWindow(documents[ordinal]!, after, before));
        expect([...found].sort((left, right) => left - right)).toEqual(expected.sort((left, right) => left - right));
      }
    };
    check();
    for (const ordinal of order.slice(0, 2_000)) {
      live.delete(ordinal);
      times.remove(documents[ordinal]!.mentions);
    }
    expect(times.sparse).toBe(true);
    check();
    times.rebuild((ordinal) => (live.has(ordinal) ? ordinal : -1));
    expect(times.sparse).toBe(false);
    check();
  });

  it("gives up past `most` spans, so a wide window falls back to a scan", () => {
    const times = new TimeIndex();
    for (let ordinal = 0; ordinal < 100; ordinal++) times.add(ordinal, START + ordinal * DAY, undefined);
    expect(times.find(START, START + 10 * DAY, 50)).toHaveLength(10);
    expect(times.find(START, START + 100 * DAY, 50)).toBeUndefined();
    expect(times.find(START + DAY, START, 50)).toEqual([]);
  });
});

describe("InMemorySemanticIndex with a time window", () => {
  const documents = corpus(4_000, random(11));
  const filled = async (options: ConstructorParameters<typeof InMemorySemanticIndex>[0] = {}) => {
    const index = new InMemorySemanticIndex(options);
    await index.add(documents);
    return index;
  };

  it("lists and deletes by a window as a scan does", async () => {
    const index = await filled({ maxDocuments: Infinity });
    for (const window of windows(60, random(3))) {
      const expected = documents
        .filter((document) => inWindow(document, window.after, window.before))
        .sort((left, right) => left.createdAt - right.createdAt)
        .map((document) => document.id);
      expect((await index.list(window)).map((document) => document.id)).toEqual(expected);
      expect((await index.list({ ...window, sessionId: "s1" })).map((document) => document.id)).toEqual(
        expected.filter((id) => Number(id.slice(1)) % 3 === 1),
      );
    }
    const window = { after: START + 100 * DAY, before: START + 130 * DAY };
    const doomed = new Set((await index.list(window)).map((document) => document.id));
    await index.delete(window);
    expect(doomed.size).toBeGreaterThan(0);
    expect(await index.list(window)).toEqual([]);
    expect(index.size).toBe(documents.length - doomed.size);
  });

  it("searches a window with the scores and order of a search filtered document by document", async () => {
    // The reference: the same documents, tagged when they meet the window, searched by that tag.
    const index = await filled({ maxDocuments: Infinity });
    for (const [number, window] of windows(16, random(5)).entries()) {
      const tagged = new InMemorySemanticIndex({ maxDocuments: Infinity });
      await tagged.add(
        documents.map((document) => ({
          ...document,
          tags: inWindow(document, window.after, window.before) ? ["in"] : [],
        })),
      );
      for (const query of [`Caroline ${WORDS[number % WORDS.length]}`, "pottery camping guitar", "Melanie race"]) {
        const summary = (hits: { document: SemanticDocument; score: number }[]) =>
          hits.map((hit) => `${hit.document.id} ${hit.score.toFixed(9)}`);
        expect(summary(await index.searchText(query, { ...window, userId: undefined }, 20))).toEqual(
          summary(await tagged.searchText(query, { tags: ["in"] }, 20)),
        );
      }
    }
  });

  it("keeps finding by time over evictions and renumbering", async () => {
    const index = new InMemorySemanticIndex({ maxDocuments: 500 });
    for (let start = 0; start < documents.length; start += 100) await index.add(documents.slice(start, start + 100));
    const kept = documents.slice(-500);
    for (const window of windows(40, random(9))) {
      const expected = kept
        .filter((document) => inWindow(document, window.after, window.before))
        .sort((left, right) => left.createdAt - right.createdAt)
        .map((document) => document.id);
      expect((await index.list(window)).map((document) => document.id)).toEqual(expected);
    }
  });
});
