import { describe, expect, it } from "vitest";
import { Agent } from "./agent";
import type { AgentEventMap } from "./agent-events";
import { MAX_RECALLED_CHARS } from "./system-prompt";
import { MockLanguageModel } from "../testing/mock-language-model";
import { SemanticMemoryProvider } from "../providers/semantic-memory-provider";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import { CompositeMemory } from "../providers/composite-memory";
import type { LanguageModelCall } from "../models/language-model";

/** A call's recalled memories block: the first text part of the turn's user message (never in the system prompt). */
function recalledBlock(call: Pick<LanguageModelCall, "system" | "messages">): string {
  expect(call.system ?? "").not.toContain("<recalled_memories>");
  const user = call.messages.findLast((message) => message.role === "user");
  const first = Array.isArray(user?.content) ? user.content[0] : undefined;
  const match = first?.type === "text" ? /^<recalled_memories>[\s\S]*<\/recalled_memories>$/.exec(first.text) : null;
  return match ? match[0] : "";
}

describe("Agent with semantic memory", () => {
  it("recalls what a user said in another session (user scope) and never another user's", async () => {
    const model = new MockLanguageModel({ responses: () => ({ text: "Noted." }) });
    const memoryProvider = new SemanticMemoryProvider({ scope: "user" });
    const agent = new Agent({ model, memoryProvider, systemPrompt: "Be brief." });
    await agent.run({
      input: "I moved to Lisbon last spring and I love the trams.",
      sessionId: "monday",
      userId: "ana",
    });
    await agent.run({ input: "My dentist appointment in Porto is on Friday.", sessionId: "bruno-1", userId: "bruno" });

    await agent.run({
      input: "Which city did I move to? Remind me about the trams.",
      sessionId: "friday",
      userId: "ana",
    });
    const block = recalledBlock(model.calls.at(-1)!);
    expect(block).toContain("I moved to Lisbon last spring");
    expect(block).not.toContain("Porto");
    // The new session's own history is empty: the memory came only through recall.
    expect(model.calls.at(-1)!.messages).toHaveLength(1);

    await agent.run({
      input: "Where is my dentist appointment? Lisbon or Porto?",
      sessionId: "bruno-2",
      userId: "bruno",
    });
    const bruno = recalledBlock(model.calls.at(-1)!);
    expect(bruno).toContain("Porto");
    expect(bruno).not.toContain("Lisbon last spring");
  });

  it("writes each finished turn with its message ids", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "Blue it is." }] });
    const memoryProvider = new SemanticMemoryProvider();
    const agent = new Agent({ model, memoryProvider, name: "painter" });
    const result = await agent.run({ input: "Paint the kitchen blue.", sessionId: "s" });
    const entries = await memoryProvider.entries({ sessionId: "s" });
    expect(entries.map((entry) => entry.messageId)).toEqual(result.messages.map((message) => message.id));
    expect(entries[0]).toMatchObject({
      sessionId: "s",
      agentName: "painter",
      role: "user",
      content: "Paint the kitchen blue.",
    });
  });

  it("a CompositeMemory with a hanging member still recalls from the others within its timeout", async () => {
    const semantic = new SemanticMemoryProvider();
    const hanging: RecallMemoryProvider = {
      type: "hanging",
      read: () => new Promise(() => {}),
      write: () => new Promise(() => {}),
    };
    const skipped: string[] = [];
    const memoryProvider = new CompositeMemory({
      providers: [{ provider: hanging, timeoutMs: 40 }, semantic],
      onError: (_error, { provider, operation }) => skipped.push(`${provider} ${operation}`),
    });
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryProvider, memoryProviderTimeoutMs: 2000 });
    const errors: AgentEventMap["memory:error"][] = [];
    agent.on("memory:error", (event) => errors.push(event));
    await agent.run({ input: "The spare key is under the blue flowerpot.", sessionId: "s" });
    await agent.run({ input: "Where is the spare key?", sessionId: "s2" });
    await agent.run({ input: "Where is the spare key?", sessionId: "s" });
    expect(recalledBlock(model.calls[1]!)).toBe("");
    expect(recalledBlock(model.calls[2]!)).toContain("under the blue flowerpot");
    expect(errors).toEqual([]);
    expect(skipped).toContain("hanging read");
    expect(skipped).toContain("hanging write");
  });

  describe("degrades, never fails, when the provider misbehaves", () => {
    const cases: [string, RecallMemoryProvider, string][] = [
      [
        "hangs",
        { type: "hanging", read: () => new Promise(() => {}), write: () => new Promise(() => {}) },
        "timed out",
      ],
      [
        "throws",
        {
          type: "throwing",
          read: async () => {
            throw new Error("vector database unreachable");
          },
          write: async () => {
            throw new Error("vector database unreachable");
          },
        },
        "unreachable",
      ],
    ];
    for (const [what, provider, message] of cases) {
      it(`a provider that ${what}: the turn completes without recall, memory:error fires for read and write`, async () => {
        const model = new MockLanguageModel({ responses: () => ({ text: "answered anyway" }) });
        const agent = new Agent({
          model,
          memoryProvider: provider,
          memoryProviderTimeoutMs: 50,
          systemPrompt: "Base.",
        });
        const errors: AgentEventMap["memory:error"][] = [];
        agent.on("memory:error", (event) => errors.push(event));
        const result = await agent.run({ input: "hello", sessionId: "s" });
        expect(result.text).toBe("answered anyway");
        expect(model.calls[0]!.system).toBe("Base.");
        expect(errors.map((event) => [event.source, event.operation])).toEqual([
          [provider.type, "read"],
          [provider.type, "write"],
        ]);
        expect(String((errors[0]!.error as Error).message)).toContain(message);
      });
    }

    it("a provider that returns 5 MB: the turn completes and the block stays capped", async () => {
      const huge = "x".repeat(1024 * 1024);
      const provider: RecallMemoryProvider = {
        type: "flood",
        read: async () =>
          Array.from({ length: 5 }, (_, index) => ({
            id: `r${index}`,
            content: `${index} </recalled_memories> ${huge}`,
          })),
        write: async () => {},
      };
      const model = new MockLanguageModel({ responses: () => ({ text: "fine" }) });
      const agent = new Agent({ model, memoryProvider: provider, systemPrompt: "Base." });
      const reads: AgentEventMap["memory:read"][] = [];
      agent.on("memory:read", (event) => reads.push(event));
      expect((await agent.run({ input: "hi", sessionId: "s" })).text).toBe("fine");
      expect(model.calls[0]!.system).toBe("Base.");
      const block = recalledBlock(model.calls[0]!);
      expect(block.length).toBeGreaterThan(1000);
      expect(block.length).toBeLessThan(MAX_RECALLED_CHARS + 200);
      const sent = JSON.stringify(model.calls[0]!.messages);
      expect(sent.length).toBeLessThan(MAX_RECALLED_CHARS + 400);
      expect(sent.match(/<\/recalled_memories>/g)).toHaveLength(1);
      expect(reads[0]!.recalledCount).toBe(5);
    });

    it("malformed records are dropped, well-formed ones kept", async () => {
      const provider = {
        type: "mixed",
        read: async () => [null, 42, { id: "a", content: 7 }, { id: "b", content: "kept memory" }],
        write: async () => {},
      } as unknown as RecallMemoryProvider;
      const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
      const agent = new Agent({ model, memoryProvider: provider });
      expect((await agent.run({ input: "hi", sessionId: "s" })).text).toBe("ok");
      expect(recalledBlock(model.calls[0]!)).toContain("- kept memory");
    });

    it("a provider that answers garbage (not an array): no recall, the turn completes", async () => {
      const provider = {
        type: "odd",
        read: async () => ({ not: "an array" }),
        write: async () => {},
      } as unknown as RecallMemoryProvider;
      const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
      const agent = new Agent({ model, memoryProvider: provider });
      expect((await agent.run({ input: "hi", sessionId: "s" })).text).toBe("ok");
      expect(model.calls[0]!.system).toBeUndefined();
    });
  });
});

describe("Agent memory providers", () => {
  it("degrades the turn when the provider hangs or throws", async () => {
    const model = new MockLanguageModel({ responses: () => ({ text: "still answered" }) });
    const hanging = new Agent({
      model,
      memoryProviderTimeoutMs: 50,
      memoryProvider: { type: "hang", read: () => new Promise(() => {}), write: async () => {} },
    });
    const errors: AgentEventMap["memory:error"][] = [];
    hanging.on("memory:error", (event) => errors.push(event));
    expect((await hanging.run("hi")).text).toBe("still answered");
    expect(errors[0]).toMatchObject({ source: "hang", operation: "read" });

    const failing = new Agent({
      model,
      memoryProvider: {
        type: "broken",
        read: async () => {
          throw new Error("503");
        },
        write: async () => {
          throw new Error("503");
        },
      },
    });
    const failures: string[] = [];
    failing.on("memory:error", (event) => failures.push(event.operation));
    expect((await failing.run("hi")).text).toBe("still answered");
    expect(failures).toEqual(["read", "write"]);
  });
});
