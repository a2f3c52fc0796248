// A regenerate or an edit reads the tail its strategy needs, as a normal turn does, and reads
// further back only when the message it starts from is not in it. Each case runs beside the same
// request on a store that can only read whole histories: the model must see the same messages and
// the store must end the same, so reading less never changes the outcome.
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import type { Fact, MemoryStore } from "../stores/memory-store";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { SlidingWindowMemory } from "../strategies/sliding-window";
import { SummaryMemory } from "../strategies/summary-memory";
import { TokenWindowMemory } from "../strategies/token-window";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent, streamDescribedRun } from "./agent";
import type { AgentRunOptions } from "./agent-options";

/** A chat of `turns` turns, each a user message and `perTurn - 1` assistant messages. */
function chat(turns: number, perTurn = 2): AgentMessage[] {
  return Array.from({ length: turns * perTurn }, (_, index) => ({
    id: `m${index}`,
    role: index % perTurn === 0 ? ("user" as const) : ("assistant" as const),
    content: `message ${index}`,
    timestamp: index,
  }));
}

/** The store's history reads, counted: every message returned, whole reads apart. */
function countReads(store: InMemoryStore) {
  const reads = { messages: 0, whole: 0, limits: [] as number[] };
  const tail = store.getMessageTail.bind(store);
  const whole = store.getMessages.bind(store);
  store.getMessageTail = async (sessionId, limit) => {
    const read = await tail(sessionId, limit);
    reads.messages += read.messages.length;
    reads.limits.push(limit);
    return read;
  };
  store.getMessages = async (sessionId) => {
    const read = await whole(sessionId);
    reads.messages += read.length;
    reads.whole++;
    return read;
  };
  return reads;
}

/** A store with only the six required methods: the agent reads whole histories from it. */
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

const shape = (messages: readonly AgentMessage[]) => messages.map((message) => `${message.role}: ${message.content}`);

/**
 * The same rewinding run on a built-in store (tail reads, counted) and on a whole-history store,
 * from one history: checks both models saw the same requests and both stores end the same.
 */
async function besideWhole(
  history: AgentMessage[],
  memory: () => IMemoryStrategy,
  options: AgentRunOptions,
  regenerateFrom?: string,
) {
  const tailStore = new InMemoryStore();
  const wholeBase = new InMemoryStore();
  await tailStore.setMessages("s", history);
  await wholeBase.setMessages("s", history);
  const reads = countReads(tailStore);
  const respond = { responses: (_call: unknown, index: number) => ({ text: `answer ${index}` }) };
  const tailModel = new MockLanguageModel(respond);
  const wholeModel = new MockLanguageModel(respond);
  const strategy = memory();
  const tailAgent = new Agent({ model: tailModel, memoryStore: tailStore, memory: strategy, sessionId: "s" });
  const wholeAgent = new Agent({ model: wholeModel, memoryStore: requiredOnly(wholeBase), memory: memory() });
  // A regenerate naming the message to answer again, as `streamText` describes it.
  const run = (agent: Agent, options: AgentRunOptions) =>
    regenerateFrom === undefined ? agent.run(options) : streamDescribedRun(agent, { options, regenerateFrom }).response;
  const result = await run(tailAgent, { ...options, sessionId: "s" });
  await run(wholeAgent, { ...options, sessionId: "s" });
  expect(tailModel.calls.map((call) => shape(call.messages))).toEqual(
    wholeModel.calls.map((call) => shape(call.messages)),
  );
  const read = { ...reads, limits: [...reads.limits] }; // before the checks' own reads
  const stored = await tailStore.getMessages("s");
  expect(shape(stored)).toEqual(shape(await wholeBase.getMessages("s")));
  return { result, reads: read, strategy, stored, sent: tailModel.calls.map((call) => shape(call.messages)) };
}

describe("a regenerate or an edit reads a tail", () => {
  it("a regenerate on a 5,000-message session reads no more than the tail its strategy needs", async () => {
    const history = chat(2500);
    const { result, reads, strategy, stored, sent } = await besideWhole(
      history,
      () => new SlidingWindowMemory({ maxTurns: 20 }),
      { regenerate: true },
    );
    expect(reads.whole).toBe(0);
    expect(reads.limits).toEqual([strategy.historyLimit]);
    expect(reads.messages).toBe(strategy.historyLimit);
    expect(result.text).toBe("answer 0");
    // The window: the last 20 turns before the question, then the question; the old answer gone.
    expect(sent[0]).toEqual(shape([...history.slice(-40, -2), history.at(-2)!]));
    expect(stored).toHaveLength(5000);
    expect(stored.slice(0, 4999)).toEqual(history.slice(0, 4999));
    expect(stored.at(-1)).toMatchObject({ role: "assistant", content: "answer 0" });
  });

  it.each([
    ["token_window", () => new TokenWindowMemory({ maxTokens: 300 })],
    ["summary", () => new SummaryMemory({ summarizeThreshold: 12, recentMessages: 6 })],
  ] as const)(
    "%s sees the same window as after a whole read (the kept tail carries the stored total)",
    async (_name, memory) => {
      const { reads } = await besideWhole(chat(300), memory, { regenerate: true });
      expect(reads.whole).toBe(0);
    },
  );

  it("a window that needs a longer tail than the first reads it through the turn, without the messages replaced", async () => {
    // Turns of ten messages: 20 turns do not fit the first tail, so the window asks for longer ones.
    const { reads, sent } = await besideWhole(chat(400, 10), () => new SlidingWindowMemory({ maxTurns: 20 }), {
      regenerate: true,
    });
    expect(reads.limits.length).toBeGreaterThan(1);
    expect(reads.whole).toBe(0);
    expect(sent[0]).toHaveLength(20 * 10 - 9);
    expect(sent[0]!.at(-1)).toBe("user: message 3990");
    expect(sent[0]).not.toContain("assistant: message 3991");
  });

  it("an edit whose window needs a longer tail sends exactly the turns before the edited message, then the new input", async () => {
    // Issue 46.17: a longer tail cut one message late shows the model the old user message right
    // before the edited one; a regenerate hides that (it sends the same message again).
    const history = chat(400, 10);
    const { reads, sent, stored } = await besideWhole(history, () => new SlidingWindowMemory({ maxTurns: 20 }), {
      input: "edited",
      replaceFrom: "m3990",
    });
    expect(reads.limits.length).toBeGreaterThan(1);
    expect(reads.whole).toBe(0);
    expect(sent).toEqual([[...shape(history.slice(3990 - 19 * 10, 3990)), "user: edited"]]);
    expect(shape(stored)).toEqual([...shape(history.slice(0, 3990)), "user: edited", "assistant: answer 0"]);
  });

  it("an edit of the first message of a 5,000-message session still works, reading further back", async () => {
    const { result, reads, stored } = await besideWhole(chat(2500), () => new SlidingWindowMemory({ maxTurns: 20 }), {
      input: "edited",
      replaceFrom: "m0",
    });
    expect(result.text).toBe("answer 0");
    expect(shape(stored)).toEqual(["user: edited", "assistant: answer 0"]);
    expect(reads.messages).toBeGreaterThan(5000);
  });

  it("a regenerate naming an old answer cuts there; an id the session does not hold falls back to the last question", async () => {
    const named = await besideWhole(
      chat(2500),
      () => new SlidingWindowMemory({ maxTurns: 20 }),
      { regenerate: true },
      "m201",
    );
    expect(shape(named.stored).slice(-2)).toEqual(["user: message 200", "assistant: answer 0"]);
    expect(named.stored).toHaveLength(202);
    const unknown = await besideWhole(
      chat(2500),
      () => new SlidingWindowMemory({ maxTurns: 20 }),
      { regenerate: true },
      "not-stored",
    );
    expect(shape(unknown.stored).slice(-2)).toEqual(["user: message 4998", "assistant: answer 0"]);
    expect(unknown.reads.messages).toBeGreaterThanOrEqual(5000);
  });

  it("refuses an unknown or non-user replaceFrom on a long session with the same typed errors, changing nothing", async () => {
    const history = chat(2500);
    const store = new InMemoryStore();
    await store.setMessages("s", history);
    const agent = new Agent({ model: new MockLanguageModel({ responses: [] }), memoryStore: store, sessionId: "s" });
    await expect(agent.run({ input: "x", replaceFrom: "missing" })).rejects.toSatisfy(MessageNotFoundError.isInstance);
    await expect(agent.run({ input: "x", replaceFrom: "m1" })).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(await store.getMessages("s")).toEqual(history);
  });
});
