import { describe, expect, it } from "vitest";
import { fuseByRank } from "./fuse-by-rank";
import type { ScoredDocument } from "./semantic-index";

const hit = (id: string): ScoredDocument => ({
  document: { id, content: id, createdAt: 0, tags: [] },
  score: 1,
});
const ids = (hits: ScoredDocument[]) => hits.map((entry) => entry.document.id);

describe("fuseByRank", () => {
  const lexical = [hit("a"), hit("b"), hit("c")];
  const vector = [hit("c"), hit("b"), hit("a"), hit("d")];

  it("sums weight / (k + rank) over the lists", () => {
    const [first] = fuseByRank(
      [
        { hits: lexical, weight: 1 },
        { hits: vector, weight: 0.5 },
      ],
      60,
    );
    expect(first!.document.id).toBe("a");
    expect(first!.score).toBeCloseTo(1 / 61 + 0.5 / 63, 12);
  });

  it("lets the weight decide which list leads", () => {
    const fused = (weight: number) =>
      ids(
        fuseByRank(
          [
            { hits: lexical, weight: 1 },
            { hits: vector, weight },
          ],
          60,
        ),
      );
    expect(fused(0.2)).toEqual(["a", "b", "c", "d"]);
    expect(fused(2)).toEqual(["c", "b", "a", "d"]);
    // Weight 0: the first list's order, then what only the other list holds.
    expect(fused(0)).toEqual(["a", "b", "c", "d"]);
    // Equal weights: the vector-only document still trails, a and c tie and keep first-met order.
    expect(fused(1)).toEqual(["a", "c", "b", "d"]);
  });
});
