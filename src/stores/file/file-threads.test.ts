import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../messages/agent-message";
import { backendOf } from "../backend-of";
import { addTotals, emptyTotals, type UsageTotals } from "../usage-totals";
import { committedField, journalHeader } from "./file-state";
import { FileMemoryStore } from "./file-memory-store";

const root = mkdtempSync(join(tmpdir(), "agentcore-file-threads-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
const freshPath = () => join(root, `case-${counter++}`, "sessions.json");

const turn = (index: number, session = "s"): AgentMessage[] => [
  { id: `${session}-u${index}`, role: "user", content: `question ${index}`, timestamp: index },
  { id: `${session}-a${index}`, role: "assistant", content: `answer ${index}`, timestamp: index },
];
const fact = (key: string, value: string) => ({ key, value, createdAt: 1, updatedAt: 1 });
const spent = (calls: number): UsageTotals => ({
  ...emptyTotals(),
  inputTokens: 10 * calls,
  outputTokens: 5 * calls,
  totalTokens: 15 * calls,
  modelCalls: calls,
  cost: 0.125 * calls,
});

/** A journal as the store wrote it before threads: its header (with `committed`) and these lines. */
function journalOf(generation: number, lines: object[]): string {
  const header = journalHeader(generation);
  const body = lines.map((line) => `${JSON.stringify(line)}\n`).join("");
  const length = Buffer.byteLength(header) + Buffer.byteLength(body);
  return header.replace(committedField(Buffer.byteLength(header)), committedField(length)) + body;
}

/** The lines of a journal after its header, parsed. */
function journalLines(path: string): Record<string, unknown>[] {
  return readFileSync(`${path}.journal`, "utf8")
    .split("\n")
    .slice(1)
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("FileMemoryStore threads on disk", () => {
  it("loads a snapshot and a journal written before threads, then keeps titles, metadata and the ledger across reopening and compaction", async () => {
    const path = freshPath();
    mkdirSync(join(path, ".."), { recursive: true });
    // The snapshot and journal lines of the code before threads, verbatim in shape.
    const snapshot = {
      format: "agentcore-file-store",
      version: 1,
      generation: 1,
      sessions: {
        old: { createdAt: 1, accessedAt: 2, agentName: "bot", messages: turn(0, "old"), summaries: [], userId: "ada" },
      },
      facts: { "user:ada": { name: fact("name", "Ada") } },
    };
    writeFileSync(path, `${JSON.stringify(snapshot, null, 1)}\n`);
    writeFileSync(
      `${path}.journal`,
      journalOf(1, [
        { op: "own", session: "s", userId: "ada", at: 3 },
        { op: "append", session: "s", messages: turn(1), at: 3 },
        { op: "meta", session: "s", tags: ["x"], at: 4 },
        { op: "fact", scope: "session:s", fact: fact("topic", "travel") },
        { op: "append", session: "s", messages: [{ id: "s-tool", role: "tool", content: [] }], at: 5 },
        { op: "cut", session: "old", keep: 1, messages: [], at: 6 },
      ]),
    );

    const store = new FileMemoryStore(path);
    expect(await store.getMessages("s")).toEqual([...turn(1), { id: "s-tool", role: "tool", content: [] }]);
    expect(await store.getSession("s")).toEqual({
      sessionId: "s",
      createdAt: 3,
      accessedAt: 5,
      messageCount: 3,
      tags: ["x"],
      userId: "ada",
      preview: "answer 1", // the last text, a tool result after it has none
      usage: emptyTotals(),
    });
    expect((await store.getSession("old"))?.preview).toBe("question 0");
    expect(await store.getMessageRange("s", 1, 2)).toEqual(turn(1).slice(1));
    expect((await store.listSessions({ userId: "ada" })).sessions.map((entry) => entry.sessionId)).toEqual([
      "old",
      "s",
    ]);

    // New lines on the old files: a title, metadata, usage.
    await store.updateSession("s", { title: "Trip", metadata: { pinned: true } });
    await store.appendMessages("s", turn(2), { usage: spent(2) });
    expect(await backendOf(store).titleSession("old", "Generated", spent(1))).toBe(true);
    const reopened = new FileMemoryStore(path);
    expect(await reopened.getSession("s")).toMatchObject({
      title: "Trip",
      metadata: { pinned: true },
      preview: "answer 2",
      usage: spent(2),
    });
    expect(await reopened.getUsage({ userId: "ada" })).toEqual(addTotals(spent(2), spent(1)));
    expect(await reopened.getUsage({ userId: "ada", since: Date.now() })).toEqual(addTotals(spent(2), spent(1)));

    // Folded into a snapshot: the ledger, titles and metadata are kept there.
    const compacting = new FileMemoryStore({ path, compactAfterBytes: 1 });
    await compacting.appendMessages("s", turn(3));
    expect(journalLines(path)).toEqual([]);
    const fromSnapshot = new FileMemoryStore(path);
    expect(await fromSnapshot.getUsage({ userId: "ada" })).toEqual(addTotals(spent(2), spent(1)));
    expect(await fromSnapshot.getSession("old")).toMatchObject({
      title: "Generated",
      usage: spent(1),
      agentName: "bot",
    });
    expect(await fromSnapshot.getSession("s")).toMatchObject({ title: "Trip", preview: "answer 3" });
    expect(await fromSnapshot.deleteUserData("ada")).toEqual({ sessions: 2, messages: 8, facts: 2 });
    expect(await new FileMemoryStore(path).entries()).toEqual([]);
  });

  it("writes a turn's usage in its append's own journal line, and a user's deletion as one line", async () => {
    const path = freshPath();
    const store = new FileMemoryStore(path);
    const turnOn = async (session: string, index: number, usage?: UsageTotals) => {
      const opened = await backendOf(store).openTurn(session, { timeoutMs: 0, tailLimit: 4, userId: "ada" });
      await opened.tail();
      await opened.append(turn(index, session).slice(0, 1));
      await opened.append(turn(index, session).slice(1), { last: true, ...(usage ? { usage } : {}) });
      await opened.release();
    };
    await turnOn("s", 0, spent(1));
    const before = journalLines(path).length;
    await turnOn("s", 1, spent(2));
    const lines = journalLines(path).slice(before);
    expect(lines.map((line) => line.op)).toEqual(["append", "append"]);
    expect(lines[1]).toMatchObject({ op: "append", usage: spent(2) });
    await turnOn("t", 0);
    await store.setFact("session:t", fact("k", "v"));
    const beforeDelete = journalLines(path).length;
    expect(await store.deleteUserData("ada")).toEqual({ sessions: 2, messages: 6, facts: 1 });
    expect(journalLines(path).slice(beforeDelete)).toEqual([{ op: "forget", userId: "ada", sessions: ["s", "t"] }]);
    // Nothing left: a retry writes no line.
    expect(await store.deleteUserData("ada")).toEqual({ sessions: 0, messages: 0, facts: 0 });
    expect(journalLines(path)).toHaveLength(beforeDelete + 1);
  });
});
