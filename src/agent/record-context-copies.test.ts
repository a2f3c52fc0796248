// Context reports keep no copy of what the store deletes (a fact, edited-away messages and their
// summary), and each report is bounded in bytes (issue 46.8). Run on the in-memory store and on
// SQLite and the file store (durable), since the report is built once, in the agent, for all stores.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { SqliteMemoryStore } from "../stores/sqlite/sqlite-memory-store";
import { FullMemory } from "../strategies/full-memory";
import { SummaryMemory } from "../strategies/summary-memory";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent } from "./agent";

const directory = mkdtempSync(join(tmpdir(), "agentcore-report-copies-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));
let counter = 0;

const stores: Array<[string, () => MemoryStore]> = [
  ["in-memory", () => new InMemoryStore()],
  ["SQLite", () => new SqliteMemoryStore({ database: new BetterSqlite3(":memory:") })],
  ["file", () => new FileMemoryStore(join(directory, `store-${counter++}.json`))],
];

const reportsText = async (store: MemoryStore, sessionId: string) =>
  JSON.stringify(await (store as Required<MemoryStore>).getContextReports!(sessionId));

describe.each(stores)("context reports on the %s store", (_name, factory) => {
  it("after forget_fact, no report holds the fact's value", async () => {
    const secret = "4111-secret-card-number";
    const call = (name: string, args: object, id: string) => ({ toolCalls: [{ id, name, arguments: args }] });
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "card", value: secret }, "c1"),
        { text: "Noted." },
        { text: "Your card is on file." },
        { text: "Still on file." },
        call("forget_fact", { key: "card" }, "c2"),
        { text: "Forgotten." },
      ],
    });
    const store = factory();
    const agent = new Agent({
      model,
      memoryStore: store,
      enableMemoryTools: true,
      recordContext: true,
      sessionId: "s",
    });
    await agent.run("Remember my card.");
    await agent.run("What is my card?");
    await agent.run("And now?");
    // The fact was in the prompt of these calls, and the reports say so (by key).
    expect(model.calls[2]!.system).toContain(secret);
    const before = await (store as Required<MemoryStore>).getContextReports!("s");
    expect(before.some((report) => report.facts.some((fact) => fact.key === "card"))).toBe(true);
    await agent.run("Forget my card.");
    expect(await store.getFacts("session:s")).toEqual([]);
    expect(await reportsText(store, "s")).not.toContain(secret);
  });

  it("after an edit deleted messages and their summary, no report holds their text", async () => {
    const summaryText = "SUMMARY-OF-THE-EARLY-TURNS";
    const model = new MockLanguageModel({
      responses: (call, index) =>
        call.tools?.length || !call.system?.includes("summar") ? { text: `answer ${index}` } : { text: summaryText },
    });
    const store = factory();
    const agent = new Agent({
      model,
      memory: new SummaryMemory({ summarizeThreshold: 4, recentMessages: 2 }),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
    });
    await agent.run("hello");
    const [first] = await store.getMessages("s");
    for (let index = 1; index <= 4; index++) await agent.run(`private detail number ${index}`);
    const summaries = await (store as Required<MemoryStore>).getSummaries!("s");
    expect(summaries.map((summary) => summary.content)).toContain(summaryText);
    // The edit replaces everything from the first message on: the messages and their summary go.
    await agent.run({ input: "a fresh start", sessionId: "s", replaceFrom: first!.id! });
    expect(await (store as Required<MemoryStore>).getSummaries!("s")).toEqual([]);
    const text = await reportsText(store, "s");
    expect(text).not.toContain(summaryText);
    expect(text).not.toContain("private detail number");
  });

  it("a report on a 20,000-message session is within MAX_CONTEXT_REPORT_BYTES (64 KiB)", async () => {
    const store = factory();
    const messages: AgentMessage[] = Array.from({ length: 20_000 }, (_, index) => ({
      id: `message-${String(index).padStart(6, "0")}-0123456789`,
      role: index % 2 === 0 ? "user" : "assistant",
      content: `m${index}`,
    }));
    await store.setMessages("s", messages);
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    const agent = new Agent({
      model,
      memory: new FullMemory(),
      memoryStore: store,
      recordContext: true,
      sessionId: "s",
    });
    await agent.run("one more");
    const [report] = await (store as Required<MemoryStore>).getContextReports!("s");
    expect(new TextEncoder().encode(JSON.stringify(report)).length).toBeLessThanOrEqual(64 * 1024); // MAX_CONTEXT_REPORT_BYTES, as documented
    expect(report).toMatchObject({ truncated: true, windowCount: 20_001 });
    // The newest ids are kept: the last of the window is the turn's own user message.
    const stored = await store.getMessages("s");
    expect(report!.window.at(-1)).toBe(stored.at(-2)!.id);
  });
});
