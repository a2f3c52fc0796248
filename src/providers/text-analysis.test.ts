import { describe, expect, it } from "vitest";
import { InMemorySemanticIndex } from "./in-memory-semantic-index";
import { analyzeQuery, analyzeText } from "./text-analysis";

describe("analyzeQuery", () => {
  it("leaves out the words that frame a question, which documents keep", () => {
    expect(analyzeQuery("What kind of art does Caroline make?")).toEqual(["art", "carolin", "make"]);
    expect(analyzeQuery("What activities has Melanie done?")).toEqual(["melani", "done"]);
    expect(analyzeText("Thanks for your kind words")).toEqual(["thank", "kind", "word"]);
  });

  it("keeps them when the query holds nothing else", () => {
    expect(analyzeQuery("what kind?")).toEqual(["kind"]);
  });

  it("ranks the turn about the thing asked above one that shares only the framing word", async () => {
    const index = new InMemorySemanticIndex();
    const turn = (id: string, content: string) => ({ id, content, sessionId: "s", createdAt: 0, tags: [] });
    await index.add([
      turn("kind", "Caroline: Your kind words about my art mean a lot, kind of you, really kind."),
      turn("art", "Caroline: I make abstract art, mostly painting."),
    ]);
    const hits = await index.searchText("What kind of art does Caroline make?", {}, 2);
    expect(hits.map((hit) => hit.document.id)).toEqual(["art", "kind"]);
  });
});
