import { describe, expect, it } from "./vitest-api";
import type { AgentMessage } from "../messages/agent-message";
import type {
  MemoryRecord,
  MemoryRecordEntry,
  RecallMemoryProvider,
  RecallReadOptions,
} from "../providers/memory-provider";

/** Options of {@link testMemoryProvider}. */
export interface TestMemoryProviderOptions {
  /**
   * How the provider scopes reads: `"session"` (a read with a sessionId sees only that session) or
   * `"user"` (a read with a userId sees that user's memories across sessions). Either way a read
   * never sees another user's memories. @default "session"
   */
  scope?: "session" | "user";
  /** Whether reads filter by `tags`. @default true */
  tags?: boolean;
}

let counter = 0;
function messages(...contents: string[]): AgentMessage[] {
  return contents.map((content, index) => ({
    id: `contract-${++counter}`,
    role: index % 2 === 0 ? "user" : "assistant",
    content,
    timestamp: Date.now(),
  }));
}

/** A recall provider's read: its records (the suite is for providers whose `read` returns records). */
const recall = async (provider: RecallMemoryProvider, options: RecallReadOptions) =>
  (await provider.read(options)) as MemoryRecord[];
const texts = (records: MemoryRecord[]) => records.map((record) => record.content).join("\n");

/**
 * The conformance suite of the recall provider contract (`MemoryProvider<MemoryRecord>`), which every built-in provider passes:
 * write-then-read, `limit`, user and session isolation, tags, `clear` and `entries` (the last two
 * when the provider has them). Call it in a vitest test file with a factory that returns a fresh,
 * empty provider each call; it declares one `describe` block of tests:
 *
 * ```ts
 * import { testMemoryProvider } from "agentcore/testing";
 * testMemoryProvider("MyProvider", () => new MyProvider(), { scope: "user" });
 * ```
 */
export function testMemoryProvider(
  name: string,
  factory: () => RecallMemoryProvider | Promise<RecallMemoryProvider>,
  options: TestMemoryProviderOptions = {},
): void {
  const scope = options.scope ?? "session";
  const tags = options.tags ?? true;

  describe(`MemoryProvider contract: ${name}`, () => {
    it("has a type and returns nothing before anything is written", async () => {
      const provider = await factory();
      expect(typeof provider.type).toBe("string");
      expect(
        await recall(provider, { sessionId: "s-empty", userId: "u-empty", query: "anything at all", limit: 5 }),
      ).toEqual([]);
    });

    it("finds a written memory by a query on its content, with ids and the source messageId", async () => {
      const provider = await factory();
      const written = messages(
        "My favourite programming language is TypeScript.",
        "Noted, TypeScript it is.",
        "I live in Lisbon, near the river Tagus.",
        "Lisbon is lovely in spring.",
      );
      await provider.write(written, { sessionId: "s1", userId: "u1" });
      const records = await recall(provider, {
        sessionId: "s1",
        userId: "u1",
        query: "Which city does the user live in? Lisbon?",
        limit: 5,
      });
      expect(records.length).toBeGreaterThan(0);
      expect(records[0]!.content).toContain("Lisbon");
      const ids = written.map((message) => message.id);
      for (const record of records) {
        expect(typeof record.id).toBe("string");
        expect(typeof record.content).toBe("string");
        if (record.messageId !== undefined) expect(ids).toContain(record.messageId);
      }
      expect(new Set(records.map((record) => record.id)).size).toBe(records.length);
    });

    it("returns at most `limit` records", async () => {
      const provider = await factory();
      await provider.write(
        messages(
          ...Array.from(
            { length: 8 },
            (_, index) => `Garden note ${index}: planted tomatoes in the garden bed ${index}.`,
          ),
        ),
        { sessionId: "s-limit", userId: "u-limit" },
      );
      const three = await recall(provider, {
        sessionId: "s-limit",
        userId: "u-limit",
        query: "garden tomatoes",
        limit: 3,
      });
      expect(three).toHaveLength(3);
      const one = await recall(provider, {
        sessionId: "s-limit",
        userId: "u-limit",
        query: "garden tomatoes",
        limit: 1,
      });
      expect(one).toHaveLength(1);
    });

    it("never returns another user's memories, whatever session is asked for", async () => {
      const provider = await factory();
      await provider.write(messages("Alice's bank passphrase is heliotrope-42."), {
        sessionId: "shared-session",
        userId: "alice",
      });
      await provider.write(messages("Bob grows heliotrope flowers on his balcony."), {
        sessionId: "bob-session",
        userId: "bob",
      });
      for (const sessionId of ["shared-session", "bob-session"]) {
        const records = await recall(provider, {
          sessionId,
          userId: "bob",
          query: "heliotrope passphrase bank",
          limit: 10,
        });
        expect(texts(records)).not.toContain("passphrase");
      }
      const own = await recall(provider, {
        sessionId: "bob-session",
        userId: "bob",
        query: "heliotrope flowers",
        limit: 10,
      });
      expect(texts(own)).toContain("balcony");
    });

    if (scope === "session") {
      it("session scope: a read sees only its own session", async () => {
        const provider = await factory();
        await provider.write(messages("The orchids need water every Tuesday."), { sessionId: "session-a" });
        await provider.write(messages("The cactus needs water once a month."), { sessionId: "session-b" });
        const records = await recall(provider, { sessionId: "session-b", query: "orchids water", limit: 10 });
        expect(texts(records)).not.toContain("orchids");
        expect(texts(await recall(provider, { sessionId: "session-a", query: "orchids water", limit: 10 }))).toContain(
          "orchids",
        );
      });
    } else {
      it("user scope: a read sees the user's memories from all their sessions", async () => {
        const provider = await factory();
        await provider.write(messages("Carol is allergic to peanuts."), { sessionId: "carol-monday", userId: "carol" });
        const records = await recall(provider, {
          sessionId: "carol-friday",
          userId: "carol",
          query: "peanuts allergy",
          limit: 10,
        });
        expect(texts(records)).toContain("peanuts");
        const stranger = await recall(provider, {
          sessionId: "carol-friday",
          userId: "dave",
          query: "peanuts allergy",
          limit: 10,
        });
        expect(texts(stranger)).not.toContain("peanuts");
      });
    }

    if (tags) {
      it("filters by tags", async () => {
        const provider = await factory();
        await provider.write(messages("Quarterly report is due on Friday."), {
          sessionId: "s-tags",
          userId: "u-tags",
          tags: ["work"],
        });
        await provider.write(messages("Quarterly picnic with the family on Sunday."), {
          sessionId: "s-tags",
          userId: "u-tags",
          tags: ["home"],
        });
        const work = await recall(provider, {
          sessionId: "s-tags",
          userId: "u-tags",
          query: "quarterly",
          limit: 10,
          tags: ["work"],
        });
        expect(work.length).toBeGreaterThan(0);
        expect(texts(work)).toContain("report");
        expect(texts(work)).not.toContain("picnic");
      });
    }

    it("clear forgets a scope and only that scope", async () => {
      const provider = await factory();
      if (!provider.clear) return;
      await provider.write(messages("Erin's locker code is 5512."), { sessionId: "s-erin", userId: "erin" });
      await provider.write(messages("Frank's locker code is 7788."), { sessionId: "s-frank", userId: "frank" });
      await provider.clear({ sessionId: "s-erin", userId: "erin" });
      expect(await recall(provider, { sessionId: "s-erin", userId: "erin", query: "locker code", limit: 10 })).toEqual(
        [],
      );
      expect(
        texts(await recall(provider, { sessionId: "s-frank", userId: "frank", query: "locker code", limit: 10 })),
      ).toContain("7788");
    });

    it("entries lists a scope's memories with their metadata", async () => {
      const provider = await factory();
      if (!provider.entries) return;
      const before = Date.now();
      await provider.write(messages("Grace prefers window seats."), {
        sessionId: "s-grace",
        userId: "grace",
        agentName: "planner",
      });
      await provider.write(messages("Heidi prefers aisle seats."), { sessionId: "s-heidi", userId: "heidi" });
      const entries = (await provider.entries({ sessionId: "s-grace", userId: "grace" })) as MemoryRecordEntry[];
      expect(entries.length).toBeGreaterThan(0);
      expect(texts(entries)).toContain("window");
      expect(texts(entries)).not.toContain("aisle");
      for (const entry of entries) {
        expect(typeof entry.id).toBe("string");
        expect(entry.createdAt).toBeGreaterThanOrEqual(before - 60_000);
        expect(Array.isArray(entry.tags)).toBe(true);
        if (entry.userId !== undefined) expect(entry.userId).toBe("grace");
      }
    });
  });
}
