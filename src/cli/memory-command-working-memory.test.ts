import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { showFacts, showSession } from "./memory-command";
import type { Output } from "./output";

function capture(): { output: Output; printed: string[]; rows: unknown[][] } {
  const printed: string[] = [];
  const rows: unknown[][] = [];
  return {
    printed,
    rows,
    output: {
      json: false,
      line: (text = "") => printed.push(text),
      data: () => {},
      table: (_headers, body) => rows.push(...body),
    },
  };
}

describe("agentcore memory and working memory", () => {
  const schema = z.object({
    name: z.string().max(50).optional(),
    prefs: z.object({ theme: z.string().max(10).optional() }).optional(),
  });

  it("show prints the session's and, with --user, the user's profile; facts lists none of its keys", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    const perUser = new Agent({ model, memoryStore: store, workingMemory: { schema, scope: "user" } });
    const perSession = new Agent({ model, memoryStore: store, workingMemory: { schema, scope: "session" } });
    await perUser.updateWorkingMemory({ userId: "ada" }, { set: { name: "Ada", prefs: { theme: "dark" } } });
    await perSession.updateWorkingMemory({ sessionId: "s" }, { set: { name: "Thread profile" } });
    await store.setFact("user:ada", { key: "city", value: "Oslo", createdAt: 1, updatedAt: 1 });
    const opened = { store, label: "memory:", close: async () => {} };

    const shown = capture();
    await showSession(opened, shown.output, "s", "ada");
    expect(shown.printed[0]).toBe("Working memory of session:s:");
    expect(shown.printed[1]).toMatch(/^ {2}name = "Thread profile" {2}\(/);
    expect(shown.printed).toContain("Working memory of user:ada:");
    expect(shown.printed.some((line) => line.startsWith('  prefs.theme = "dark"'))).toBe(true);

    const facts = capture();
    await showFacts(opened, facts.output, "s", "ada");
    expect(facts.rows.map((row) => row[0])).toEqual(["city"]);
  });
});
