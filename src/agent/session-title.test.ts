// Titles generated after a session's first completed turn (`generateTitle`, docs/threads.md).
import { parseJsonEventStream } from "@ai-sdk/provider-utils";
import { uiMessageChunkSchema } from "ai";
import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { TitleGenerationError } from "../errors/title-generation-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { streamText } from "../streaming/stream-text";
import type { UIMessageChunk } from "../streaming/ui-message-stream";
import { MockLanguageModel, type MockCall, type MockResponse } from "../testing/mock-language-model";
import { Agent } from "./agent";
import type { AgentEventMap } from "./agent-events";
import { cleanTitle } from "./session-title";
import { DEFAULT_TITLE_PROMPT } from "./title-options";

const isTitleCall = (call: MockCall) => call.system === DEFAULT_TITLE_PROMPT;

/** A model that answers title calls with `title` and the rest with `answer`. */
function chatModel(title: MockResponse, answer: MockResponse = { text: "Sure." }, chunkDelayMs = 0) {
  return new MockLanguageModel({
    responses: (call) => (isTitleCall(call) ? title : answer),
    chunkDelayMs,
  });
}

function events(agent: Agent) {
  const told: { set: AgentEventMap["title:set"][]; errors: AgentEventMap["title:error"][] } = { set: [], errors: [] };
  agent.on("title:set", (event) => told.set.push(event));
  agent.on("title:error", (event) => told.errors.push(event));
  return told;
}

describe("generateTitle", () => {
  it("titles a new session after its first turn, in the ledger, once", async () => {
    const model = chatModel(
      { text: '"Trip to Lisbon."', usage: { inputTokens: 30, outputTokens: 4 } },
      {
        text: "Lisbon is lovely.",
        usage: { inputTokens: 10, outputTokens: 5 },
      },
    );
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, generateTitle: true, sessionId: "s" });
    const told = events(agent);
    const result = await agent.run({ input: "Plan a trip to Lisbon", userId: "ada" });
    expect(result.text).toBe("Lisbon is lovely.");
    await agent.idle();
    expect((await store.getSession("s"))?.title).toBe("Trip to Lisbon");
    expect(told.set.map((event) => [event.sessionId, event.title])).toEqual([["s", "Trip to Lisbon"]]);
    const titleCall = model.calls.find(isTitleCall)!;
    expect(titleCall.messages).toEqual([{ role: "user", content: "Plan a trip to Lisbon" }]);
    expect(await store.getUsage({ sessionId: "s" })).toMatchObject({ inputTokens: 40, outputTokens: 9, modelCalls: 2 });
    expect(await store.getUsage({ userId: "ada" })).toMatchObject({ modelCalls: 2 });
    // Later turns ask for no title.
    await agent.run("And Porto?");
    await agent.idle();
    expect(model.calls.filter(isTitleCall)).toHaveLength(1);
    expect(told.set).toHaveLength(1);
  });

  it("titles a session created before its first message, and never replaces a title set by hand", async () => {
    const model = chatModel({ text: "Generated" });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, generateTitle: true });
    // An app's "new chat" button: the session exists, with metadata, before any message.
    await store.updateSession("new-chat", { metadata: { pinned: false } });
    await agent.run({ input: "Hello", sessionId: "new-chat" });
    await agent.idle();
    expect((await store.getSession("new-chat"))?.title).toBe("Generated");
    // Named by the user before the first message: no title call at all.
    await store.updateSession("named", { title: "My plans" });
    await agent.run({ input: "Hello", sessionId: "named" });
    await agent.idle();
    expect((await store.getSession("named"))?.title).toBe("My plans");
    expect(model.calls.filter(isTitleCall)).toHaveLength(1);
  });

  it("reports a failing title model as title:error, without touching the run", async () => {
    const model = chatModel({ error: new Error("title model down") });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, generateTitle: true, sessionId: "s" });
    const told = events(agent);
    expect((await agent.run("Hi")).text).toBe("Sure.");
    await agent.idle();
    expect(told.set).toEqual([]);
    expect(told.errors).toHaveLength(1);
    const error = told.errors[0]!.error;
    expect(TitleGenerationError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: "failed", sessionId: "s", model: "mock/mock-model" });
    expect((await store.getSession("s"))?.title).toBeUndefined();
    // An empty answer is a failure too.
    const empty = new Agent({ model: chatModel({ text: "  \n " }), memoryStore: store, generateTitle: true });
    const emptyTold = events(empty);
    await empty.run({ input: "Hi", sessionId: "t" });
    await empty.idle();
    expect(emptyTold.errors[0]?.error).toMatchObject({ reason: "empty" });
  });

  it("writes no title for a failed first turn; the next completed turn titles the session", async () => {
    let failing = true;
    const model = new MockLanguageModel({
      responses: (call) =>
        isTitleCall(call) ? { text: "Titled" } : failing ? { error: new Error("provider down") } : { text: "Ok." },
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, generateTitle: true, sessionId: "s" });
    await expect(agent.run("First")).rejects.toThrow();
    await agent.idle();
    expect((await store.getSession("s"))?.title).toBeUndefined();
    failing = false;
    await agent.run("Again");
    await agent.idle();
    expect((await store.getSession("s"))?.title).toBe("Titled");
  });

  it("uses the given model and prompt", async () => {
    const titler = new MockLanguageModel({ modelId: "titler", responses: () => ({ text: "Custom" }) });
    const model = new MockLanguageModel({ responses: () => ({ text: "Answer" }) });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "s",
      generateTitle: { model: titler, prompt: "Name this chat." },
    });
    await agent.run("Hi");
    await agent.idle();
    expect(titler.calls.map((call) => call.system)).toEqual(["Name this chat."]);
    expect(model.calls).toHaveLength(1);
    expect((await store.getSession("s"))?.title).toBe("Custom");
  });

  it("refuses a bad generateTitle option at construction", () => {
    const model = new MockLanguageModel({ responses: [] });
    for (const generateTitle of [{ prompt: "" }, { modle: "x" }, "yes", [] as never])
      expect(() => new Agent({ model, generateTitle: generateTitle as never })).toThrow(InvalidArgumentError);
  });

  it("cleans a model's answer into a title", () => {
    expect(cleanTitle('Title: "Weekend in Rome."\nMore text')).toBe("Weekend in Rome");
    expect(cleanTitle("**Budget   planning**")).toBe("Budget planning");
    expect(cleanTitle("   ")).toBeUndefined();
    const long = cleanTitle("word ".repeat(40))!;
    expect(long.length).toBeLessThanOrEqual(81);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("streamText with generateTitle", () => {
  it("announces the title as a transient data-title part before finish when it is ready, and resolves title", async () => {
    const store = new InMemoryStore();
    // The answer streams slowly; the title model answers at once.
    const model = chatModel({ text: "Lisbon trip" }, { text: "A long answer about Lisbon." }, 2);
    const result = streamText({
      model,
      memoryStore: store,
      sessionId: "chat-1",
      userId: "ada",
      generateTitle: true,
      messages: [{ id: "u1", role: "user", content: "Plan a trip to Lisbon" }],
    });
    const chunks: UIMessageChunk[] = [];
    for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
    const types = chunks.map((chunk) => chunk.type);
    expect(types.slice(-2)).toEqual(["data-title", "finish"]);
    expect(chunks.at(-2)).toEqual({ type: "data-title", data: { title: "Lisbon trip" }, transient: true });
    expect(await result.title).toBe("Lisbon trip");
    expect((await store.listSessions({ userId: "ada" })).sessions[0]?.title).toBe("Lisbon trip");
  });

  it("sends the data-title part as the AI SDK's useChat reads it", async () => {
    const model = chatModel({ text: "Checked title" }, { text: "An answer in several chunks." }, 2);
    const response = streamText({
      model,
      memoryStore: new InMemoryStore(),
      sessionId: "chat-3",
      generateTitle: true,
      messages: [{ id: "u1", role: "user", content: "Hello" }],
    }).toUIMessageStreamResponse();
    const parsed: unknown[] = [];
    const results = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema });
    for await (const result of results as unknown as AsyncIterable<{
      success: boolean;
      value?: unknown;
      error?: unknown;
    }>) {
      if (!result.success) throw new Error(`chunk rejected by the AI SDK schema: ${String(result.error)}`);
      parsed.push(result.value);
    }
    expect(parsed).toContainEqual({ type: "data-title", data: { title: "Checked title" }, transient: true });
  });

  it("resolves title with undefined on a later turn", async () => {
    const store = new InMemoryStore();
    const model = chatModel({ text: "First title" });
    const ask = (id: string) =>
      streamText({
        model,
        memoryStore: store,
        sessionId: "chat-2",
        generateTitle: true,
        messages: [{ id, role: "user", content: "Hi" }],
      });
    expect(await ask("u1").title).toBe("First title");
    expect(await ask("u2").title).toBeUndefined();
  });
});
