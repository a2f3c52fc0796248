import { describe, expect, it } from "vitest";
import { backendOf } from "../stores/backend-of";
import { InMemoryStore } from "../stores/in-memory-store";
import type { Output } from "./output";
import { deleteUser, listUserSessions, showUserUsage } from "./users-command";

function capture(json = false): { output: Output; printed: string[]; data: unknown[] } {
  const printed: string[] = [];
  const data: unknown[] = [];
  return {
    printed,
    data,
    output: {
      json,
      line: (text = "") => printed.push(text),
      data: (value) => data.push(value),
      table: (header, rows) => printed.push(header.join(" | "), ...rows.map((row) => row.join(" | "))),
    },
  };
}

async function chat(store: InMemoryStore, sessionId: string, userId: string): Promise<void> {
  const turn = await backendOf(store).openTurn(sessionId, { timeoutMs: 1_000, userId });
  await turn.append(
    [
      { id: `${sessionId}-u`, role: "user", content: "Hi" },
      { id: `${sessionId}-a`, role: "assistant", content: "Hello!" },
    ],
    {
      last: true,
      usage: {
        inputTokens: 10,
        outputTokens: 5,
        cachedInputTokens: 0,
        reasoningTokens: 0,
        totalTokens: 15,
        modelCalls: 1,
        cost: 0,
      },
    },
  );
  await turn.release();
}

describe("agentcore users", () => {
  it("lists a user's sessions and usage, and deletes the user's data only with --yes", async () => {
    const store = new InMemoryStore();
    await chat(store, "a1", "alice");
    await chat(store, "a2", "alice");
    await chat(store, "b1", "bob");
    await store.updateSession("a1", { title: "Lisbon trip" });
    const opened = { store, label: "memory:", close: async () => {} };

    const listing = capture();
    await listUserSessions(opened, listing.output, "alice");
    expect(listing.printed[0]).toBe("session | title | messages | tokens | last used");
    expect(listing.printed.slice(1).map((row) => row.split(" | ").slice(0, 4))).toEqual(
      expect.arrayContaining([
        ["a1", "Lisbon trip", "2", "15"],
        ["a2", "-", "2", "15"],
      ]),
    );

    const usage = capture(true);
    await showUserUsage(opened, usage.output, "alice");
    expect(usage.data[0]).toMatchObject({ totalTokens: 30, modelCalls: 2 });

    await expect(deleteUser(opened, capture().output, "alice")).rejects.toThrow(/--yes/);
    expect(await store.getMessages("a1")).toHaveLength(2);
    const deleting = capture(true);
    await deleteUser(opened, deleting.output, "alice", { yes: true });
    expect(deleting.data[0]).toEqual({ userId: "alice", sessions: 2, messages: 4, facts: 0 });
    expect(await store.getMessages("a1")).toEqual([]);
    expect(await store.getMessages("b1")).toHaveLength(2);
    const again = capture(true);
    await deleteUser(opened, again.output, "alice", { yes: true });
    expect(again.data[0]).toEqual({ userId: "alice", sessions: 0, messages: 0, facts: 0 });
  });

  it("refuses an empty user id and a --since that is not a date", async () => {
    const opened = { store: new InMemoryStore(), label: "memory:", close: async () => {} };
    await expect(listUserSessions(opened, capture().output, " ")).rejects.toThrow(/user id/);
    await expect(showUserUsage(opened, capture().output, "alice", { since: "last tuesday" })).rejects.toThrow(
      /not a date/,
    );
  });
});
