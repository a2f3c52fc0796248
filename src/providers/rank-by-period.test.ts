import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { SemanticMemoryProvider } from "./semantic-memory-provider";

const at = (month: number, day: number) => Date.UTC(2022, month - 1, day, 12);
/** A chat over four days of March 2022; only the second turn of 17 March says what happened on the 16th. */
const DATED_CHAT: AgentMessage[] = [
  { id: "a", role: "user", content: "Caroline: The weather is lovely this week.", timestamp: at(3, 15) },
  { id: "b", role: "user", content: "Melanie: I painted a lake scene with my kids.", timestamp: at(3, 15) },
  { id: "c", role: "user", content: "Caroline: Work has been hectic lately.", timestamp: at(3, 17) },
  { id: "d", role: "user", content: "Caroline: Yesterday I went bowling with my cousins!", timestamp: at(3, 17) },
  { id: "e", role: "user", content: "Melanie: Painting again, a sunset this time.", timestamp: at(3, 18) },
  { id: "f", role: "user", content: "Caroline: We have been together for three years now.", timestamp: at(3, 18) },
];

describe("SemanticMemoryProvider and time", () => {
  it("ranks first the memory that mentions the date a query names, though it shares no word with it", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write(DATED_CHAT, { sessionId: "s" });
    const [first] = await provider.read({ sessionId: "s", query: "What was Caroline doing on March 16, 2022?" });
    expect(first!.messageId).toBe("d");
    // With time off, the lexical ranking puts Caroline's other turns first.
    const off = new SemanticMemoryProvider({ periodWeight: 0 });
    await off.write(DATED_CHAT, { sessionId: "s" });
    const [plain] = await off.read({ sessionId: "s", query: "What was Caroline doing on March 16, 2022?" });
    expect(plain?.messageId).not.toBe("d");
  });

  it("resolves a query's relative dates against `now`", async () => {
    const provider = new SemanticMemoryProvider({ now: () => at(3, 19) });
    await provider.write(DATED_CHAT, { sessionId: "s" });
    const records = await provider.read({ sessionId: "s", query: "What did she do three days ago?", limit: 2 });
    // d says "yesterday" on the 17th; a says "this week" on the 15th (a week holding the 16th counts less).
    expect(records.map((record) => record.messageId)).toEqual(["d", "a"]);
  });

  it("filters by after/before: written in the window, or mentioning a time in it", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write(DATED_CHAT, { sessionId: "s" });
    const ids = async (options: { query?: string; after?: Date | number; before?: Date | number }) =>
      (await provider.read({ sessionId: "s", limit: 10, ...options })).map((record) => record.messageId).sort();
    const day16 = { after: Date.UTC(2022, 2, 16), before: Date.UTC(2022, 2, 17) };
    // "this week" (a, on the 15th), "yesterday" (d, on the 17th), "for three years" (f) reach the 16th.
    expect(await ids(day16)).toEqual(["a", "d", "f"]);
    expect((await provider.read({ sessionId: "s", query: "bowling", ...day16 }))[0]!.messageId).toBe("d");
    expect(await ids({ after: new Date(Date.UTC(2022, 2, 18)) })).toEqual(["a", "e", "f"]);
    const [painted] = await provider.read({ sessionId: "s", query: "painting", before: Date.UTC(2022, 2, 16) });
    expect(painted!.messageId).toBe("b");
    await expect(provider.read({ sessionId: "s", after: Number.NaN })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(provider.read({ sessionId: "s", before: "yesterday" as never })).rejects.toMatchObject({
      argument: "before",
    });
  });

  it("keeps the caller's own after/before when the query names a date too: the window is both at once", async () => {
    // Issue 46.17: a query date must narrow the caller's filter, never widen it.
    const provider = new SemanticMemoryProvider();
    await provider.write(DATED_CHAT, { sessionId: "s" });
    const ids = async (query: string, filter: { after?: number; before?: number }) =>
      (await provider.read({ sessionId: "s", query, limit: 10, ...filter })).map((record) => record.messageId).sort();
    const before16 = { before: Date.UTC(2022, 2, 16) };
    const after18 = { after: Date.UTC(2022, 2, 18) };
    // The filters alone.
    expect(await ids("", before16)).toEqual(["a", "b", "f"]);
    expect(await ids("", after18)).toEqual(["a", "e", "f"]);
    // A query naming the 18th, before the 16th: nothing written on the 18th (e), only what the filter allows.
    expect(await ids("What did Melanie paint on March 18, 2022?", before16)).toEqual(["a", "b", "f"]);
    // A query naming March, before the 17th: not c nor e (written on the 17th and 18th about then).
    expect(await ids("What did Caroline do in March 2022?", { before: Date.UTC(2022, 2, 17) })).toEqual([
      "a",
      "b",
      "d",
      "f",
    ]);
    // A query naming the 16th, after the 18th: not d (written on the 17th about the 16th).
    expect(await ids("What did Caroline do on March 16, 2022?", after18)).toEqual(["a", "e", "f"]);
  });

  it("fills a read from the whole scope when the period's memories cannot, and only then", async () => {
    const provider = new SemanticMemoryProvider();
    await provider.write(DATED_CHAT, { sessionId: "s" });
    const searched: string[] = [];
    const index = (provider as unknown as { index: { searchText: (...args: unknown[]) => Promise<unknown> } }).index;
    const searchText = index.searchText.bind(index);
    index.searchText = (query, filter, limit) => {
      searched.push((filter as { after?: number }).after === undefined ? "scope" : "period");
      return searchText(query, filter, limit);
    };
    // 18 March holds two memories: a read of 2 is filled by the period, a read of 4 is not.
    const query = "What did Melanie paint on March 18, 2022?";
    const two = await provider.read({ sessionId: "s", query, limit: 2 });
    expect(two.map((record) => record.messageId)).toEqual(["e", "f"]);
    expect(searched).toEqual(["period"]);
    searched.length = 0;
    const four = await provider.read({ sessionId: "s", query, limit: 4 });
    expect(four.map((record) => record.messageId).slice(0, 3)).toEqual(["e", "f", "b"]);
    expect(searched).toEqual(["period", "scope"]);
  });
});
