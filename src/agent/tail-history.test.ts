// Reading only a tail of the session must never change what the model sees: for every built-in
// window, the window fitted on an adaptively read tail equals the window fitted on the whole
// history (fast-check), and the agent reads the whole history only when a window needs it.
import { isDeepStrictEqual } from "node:util";
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { Agent } from "./agent";
import { applyStrategy, loadSessionHistory } from "./session-history";
import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MemoryStore } from "../stores/memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import { backendOf } from "../stores/backend-of";
import { MockLanguageModel } from "../testing/mock-language-model";
import { arbitraryHistory } from "../strategies/__fixtures__/arbitrary-history";
import { BufferMemory } from "../strategies/buffer-memory";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { SlidingWindowMemory } from "../strategies/sliding-window";
import { SummaryMemory } from "../strategies/summary-memory";
import { TokenWindowMemory } from "../strategies/token-window";

const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);
// Report the first counterexample as found (it carries its seed): shrinking 120-turn histories is slow.
fc.configureGlobal({ endOnFailure: true, interruptAfterTimeLimit: 40_000, markInterruptAsFailure: true });
const ids = (messages: readonly AgentMessage[]) => messages.map((message) => message.id).join(" ");

/** A store with only the six required methods (the agent then reads whole histories). */
function requiredOnly(store: InMemoryStore): MemoryStore {
  return {
    getMessages: (id) => store.getMessages(id),
    setMessages: (id, messages) => store.setMessages(id, messages),
    clearMessages: (id) => store.clearMessages(id),
    getFacts: (id) => store.getFacts(id),
    setFact: (id, fact: Fact) => store.setFact(id, fact),
    deleteFact: (id, key) => store.deleteFact(id, key),
  };
}

/** The same, plus `getMessageTail` (slicing the whole history: what is read is what matters here). */
function withTail(store: InMemoryStore): MemoryStore & { getMessageTail: NonNullable<MemoryStore["getMessageTail"]> } {
  return {
    ...requiredOnly(store),
    appendMessages: (id, messages) => store.appendMessages(id, messages),
    getMessageTail: async (id, limit) => {
      const messages = await store.getMessages(id);
      return { messages: limit > 0 ? messages.slice(-Math.floor(limit)) : [], total: messages.length };
    },
  };
}

function chat(count: number, prefix = "m"): AgentMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${prefix}${index}`,
    role: index % 2 === 0 ? ("user" as const) : ("assistant" as const),
    content: `message ${index}`,
    timestamp: index,
  }));
}

describe("windows over a tail equal windows over the whole history", () => {
  const strategies = fc.oneof(
    fc
      .record({ maxTurns: fc.integer({ min: 1, max: 40 }), stable: fc.boolean() })
      .map(({ maxTurns, stable }) => new SlidingWindowMemory({ maxTurns, stablePrefix: stable }) as IMemoryStrategy),
    fc
      .record({ maxTokens: fc.integer({ min: 50, max: 6_000 }), stable: fc.boolean() })
      .map(({ maxTokens, stable }) => new TokenWindowMemory({ maxTokens, stablePrefix: stable }) as IMemoryStrategy),
    fc
      .record({
        maxMessages: fc.integer({ min: 1, max: 80 }),
        maxTokens: fc.option(fc.integer({ min: 50, max: 6_000 }), { nil: undefined }),
        stable: fc.boolean(),
      })
      .map(
        ({ maxMessages, maxTokens, stable }) =>
          new BufferMemory({
            maxMessages,
            ...(maxTokens === undefined ? {} : { maxTokens }),
            stablePrefix: stable,
          }) as IMemoryStrategy,
      ),
  );

  it("sliding, token and buffer windows: same messages sent, whatever the first tail's length", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryHistory({ maxTurns: 120 }),
        strategies,
        fc.integer({ min: 1, max: 200 }),
        async (generated, strategy, firstTail) => {
          // Stored histories never hold system messages (the agent keeps the prompt apart).
          const history = generated.filter((message) => message.role !== "system");
          const base = new InMemoryStore();
          await base.setMessages("s", history);
          const tailStore = withTail(base);
          const fullStore = requiredOnly(base);
          const read = vi.fn(tailStore.getMessageTail);
          tailStore.getMessageTail = read;

          const turn: AgentMessage[] = [{ id: "turn-user", role: "user", content: "next", timestamp: 1 }];
          const loadedTail = await loadSessionHistory(backendOf(tailStore), "s", { limit: firstTail });
          const loadedFull = await loadSessionHistory(backendOf(fullStore), "s");
          const tail = await applyStrategy(strategy, backendOf(tailStore), "s", loadedTail, turn, {});
          const full = await applyStrategy(strategy, backendOf(fullStore), "s", loadedFull, turn, {});
          // Ids first (a readable failure), then the whole messages (tool results may be cut).
          expect(ids(tail.result.messages)).toBe(ids(full.result.messages));
          expect(isDeepStrictEqual(tail.result.messages, full.result.messages)).toBe(true);
          // The token count is the same whenever both windows were counted. Before the tokenizer is
          // loaded, a history that fits its budget by its byte bound is kept without counting (no
          // count): a short tail can fit that way where the whole history has to be counted.
          if (tail.result.tokens !== undefined && full.result.tokens !== undefined)
            expect(tail.result.tokens).toBe(full.result.tokens);
          // The tail ends up holding the window, and is never longer than needed by more than doubling.
          const sentFromHistory = full.result.messages.length - 1;
          if (tail.history.partial) {
            expect(tail.history.messages.length).toBeGreaterThan(sentFromHistory);
            const lastLimit = read.mock.calls.at(-1)![1];
            if (read.mock.calls.length > 1) expect(read.mock.calls.at(-2)![1]).toBeLessThan(lastLimit);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("keeps stable prefixes stable across a growing session read as tails", async () => {
    const base = new InMemoryStore();
    const store = withTail(base);
    const strategy = new SlidingWindowMemory({ maxTurns: 12 });
    const starts: string[] = [];
    for (let turnIndex = 0; turnIndex < 120; turnIndex++) {
      const turn: AgentMessage[] = [
        { id: `u${turnIndex}`, role: "user", content: `question ${turnIndex}`, timestamp: turnIndex },
      ];
      const loaded = await loadSessionHistory(backendOf(store), "s", { limit: strategy.historyLimit });
      const { result } = await applyStrategy(strategy, backendOf(store), "s", loaded, turn, {});
      starts.push(result.messages[0]!.id!);
      await base.appendMessages("s", [
        ...turn,
        { id: `a${turnIndex}`, role: "assistant", content: `answer ${turnIndex}`, timestamp: turnIndex },
      ]);
    }
    const unchanged = starts.slice(1).filter((start, index) => start === starts[index]).length;
    // The start moves once every 3 turns (a quarter of 12) once the session is longer than the window.
    expect(unchanged / (starts.length - 1)).toBeGreaterThan(0.6);
  });
});

/**
 * Two agents on copies of one history: one reads tails (`getMessageTail`), the other the whole
 * history. `turn(text)` runs both and checks the model got the same messages from each.
 */
async function tailBesideWhole(history: AgentMessage[], memory: () => IMemoryStrategy | "sliding_window") {
  const tailBase = new InMemoryStore();
  const fullBase = new InMemoryStore();
  await tailBase.setMessages("s", history);
  await fullBase.setMessages("s", history);
  const store = withTail(tailBase);
  const reads = { whole: vi.spyOn(store, "getMessages"), tail: vi.spyOn(store, "getMessageTail") };
  const tailModel = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
  const fullModel = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
  const strategy = memory();
  const tailAgent = new Agent({ model: tailModel, memoryStore: store, memory: strategy, sessionId: "s" });
  const fullAgent = new Agent({
    model: fullModel,
    memoryStore: requiredOnly(fullBase),
    memory: memory(),
    sessionId: "s",
  });
  const contents = (model: MockLanguageModel) => model.calls.at(-1)!.messages.map((message) => message.content);
  return {
    strategy,
    reads,
    lastSent: () => tailModel.calls.at(-1)!.messages,
    async turn(text: string) {
      await tailAgent.run(text);
      await fullAgent.run(text);
      expect(contents(tailModel)).toEqual(contents(fullModel));
    },
  };
}

describe("the agent reads a tail", () => {
  it("a custom strategy's historyLimit: getMessageTail(limit), never the whole history, starting at a whole turn", async () => {
    const lastSix: IMemoryStrategy = {
      name: "last-six",
      historyLimit: 7,
      apply: (history) => ({ messages: history.slice(-6), dropped: history.slice(0, -6) }),
    };
    const base = new InMemoryStore();
    await base.setMessages("s", chat(40));
    const store = withTail(base);
    const full = vi.spyOn(store, "getMessages");
    const tail = vi.spyOn(store, "getMessageTail");
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model, memoryStore: store, memory: lastSix, sessionId: "s" }).run("next");
    expect(full).not.toHaveBeenCalled();
    expect(tail).toHaveBeenCalledTimes(1);
    expect(tail).toHaveBeenCalledWith("s", 7);
    // Tail m33..m39 starts with an assistant message: the cut turn is dropped.
    expect(model.calls[0]!.messages.map((message) => message.content)).toEqual([
      "message 35",
      "message 36",
      "message 37",
      "message 38",
      "message 39",
      "next",
    ]);
  });

  it("reads everything from a store without getMessageTail, and for a strategy without a hint", async () => {
    const base = new InMemoryStore();
    await base.setMessages("s", chat(40));
    const model = new MockLanguageModel({ responses: [{ text: "ok" }, { text: "ok" }] });
    await new Agent({
      model,
      memoryStore: requiredOnly(base),
      memory: new SlidingWindowMemory({ maxTurns: 3, stablePrefix: false }),
      sessionId: "s",
    }).run("next");
    expect(model.calls[0]!.messages.map((message) => message.content)).toEqual([
      "message 36",
      "message 37",
      "message 38",
      "message 39",
      "next",
    ]);
    const store = withTail(base);
    const tail = vi.spyOn(store, "getMessageTail");
    await new Agent({ model, memoryStore: store, sessionId: "s" }).run("again");
    expect(tail).not.toHaveBeenCalled();
    expect(model.calls[1]!.messages).toHaveLength(43);
  });

  it("sliding_window on a 5,000-message session: a short tail, and the same request as a whole-history read", async () => {
    const pair = await tailBesideWhole(chat(5_000), () => "sliding_window");
    for (let index = 0; index < 12; index++) await pair.turn(`question ${index}`);
    expect(pair.reads.whole).not.toHaveBeenCalled();
    expect(Math.max(...pair.reads.tail.mock.calls.map((call) => call[1]))).toBeLessThanOrEqual(100);
  });

  it("token_window learns how long messages are: later turns read a tail sized to the window, and send what a whole-history read sends", async () => {
    // About 50 tokens a message: a 4,000-token window holds about 80 of them, far fewer than the
    // 416 a first read sized at ten tokens a message asks for.
    const sentence = "The replication lag you measured is within the expected range for cross-region traffic today. ";
    const history = chat(3_000).map((message) => ({
      ...message,
      content: `${message.content}: ${sentence.repeat(2)}`,
    }));
    const pair = await tailBesideWhole(history, () => new TokenWindowMemory({ maxTokens: 4_000 }));
    const strategy = pair.strategy as TokenWindowMemory;
    expect(strategy.historyLimit).toBe(416);
    const reads: number[] = [];
    for (let index = 0; index < 10; index++) {
      const before = pair.reads.tail.mock.calls.length;
      await pair.turn(`question ${index}`);
      reads.push(pair.reads.tail.mock.calls.length - before);
    }
    const windowLength = pair.lastSent().length;
    expect(windowLength).toBeGreaterThan(40);
    // Learned: a tail a little longer than the window, read once a turn.
    expect(strategy.historyLimit).toBeLessThan(2 * windowLength);
    expect(strategy.historyLimit).toBeGreaterThan(windowLength);
    expect(reads.slice(1).every((count) => count === 1)).toBe(true);
  });

  it("reads a longer tail when tool-heavy turns do not fit the first one", async () => {
    const history: AgentMessage[] = [];
    for (let turnIndex = 0; turnIndex < 60; turnIndex++) {
      history.push({ id: `u${turnIndex}`, role: "user", content: `q${turnIndex}`, timestamp: turnIndex });
      for (let step = 0; step < 4; step++) {
        const callId = `c${turnIndex}-${step}`;
        history.push({
          id: `a${turnIndex}-${step}`,
          role: "assistant",
          content: "",
          toolCalls: [{ id: callId, name: "lookup", arguments: {} }],
          timestamp: turnIndex,
        });
        history.push({
          id: `t${turnIndex}-${step}`,
          role: "tool",
          toolCallId: callId,
          name: "lookup",
          content: "result",
          timestamp: turnIndex,
        });
      }
      history.push({ id: `f${turnIndex}`, role: "assistant", content: `a${turnIndex}`, timestamp: turnIndex });
    }
    const base = new InMemoryStore();
    await base.setMessages("s", history);
    const store = withTail(base);
    const tail = vi.spyOn(store, "getMessageTail");
    const model = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({
      model,
      memoryStore: store,
      memory: new SlidingWindowMemory({ maxTurns: 10, stablePrefix: false }),
      sessionId: "s",
    }).run("next");
    expect(tail.mock.calls.length).toBeGreaterThan(1);
    // 9 earlier turns of 10 messages, whole, and the new user message.
    const sent = model.calls[0]!.messages;
    expect(sent).toHaveLength(91);
    expect(sent[0]).toMatchObject({ id: "u51" });
  });

  it("summary: after the first summary, later turns read a short tail and send what a whole-history read sends", async () => {
    const make = (base: InMemoryStore, memoryStore: MemoryStore) => {
      let summaries = 0;
      const model = new MockLanguageModel({
        responses: (call) =>
          call.system?.startsWith("You keep a running summary") ? { text: `summary ${++summaries}` } : { text: "ok" },
      });
      return {
        model,
        agent: new Agent({
          model,
          memoryStore,
          memory: new SummaryMemory({ summarizeThreshold: 20, recentMessages: 6 }),
          sessionId: "s",
        }),
        base,
      };
    };
    const tailBase = new InMemoryStore();
    const fullBase = new InMemoryStore();
    await tailBase.setMessages("s", chat(400));
    await fullBase.setMessages("s", chat(400));
    const store = withTail(tailBase);
    const tailRun = make(tailBase, store);
    const fullRun = make(fullBase, requiredOnly(fullBase));
    const tail = vi.spyOn(store, "getMessageTail");
    const longestRead: number[] = [];
    for (let index = 0; index < 30; index++) {
      tail.mockClear();
      await tailRun.agent.run(`question ${index}`);
      longestRead.push(Math.max(...tail.mock.calls.map((call) => call[1])));
      await fullRun.agent.run(`question ${index}`);
      const last = (model: MockLanguageModel) => {
        const call = model.calls.filter((entry) => !entry.system?.startsWith("You keep a running summary")).at(-1)!;
        return { system: call.system, messages: call.messages.map((message) => message.content) };
      };
      expect(last(tailRun.model)).toEqual(last(fullRun.model));
    }
    // The first turn had to find the backlog (tails growing to the whole session); later turns did not.
    expect(longestRead[0]).toBeGreaterThan(400);
    expect(Math.max(...longestRead.slice(1))).toBeLessThan(100);
    expect(
      tailRun.model.calls.filter((call) => call.system?.startsWith("You keep a running summary")).length,
    ).toBeGreaterThan(2);
  });
});
