// The AgentCore document's examples (seeds/001) for strategies and stores, each run as written with
// "agentcore" as the package name; the models it names answer from a MockLanguageModel registered
// under their provider (no key, no network). The agent, Mem0 and route examples are in
// agentcore-agents.test.ts, the converter and VectorMemoryProvider ones in files of their own.
// docs/agentcore-document.md walks through them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  Agent,
  FileMemoryStore,
  InMemoryStore,
  SlidingWindowMemory,
  SummaryMemory,
  TokenWindowMemory,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { Redis as IORedis } from "ioredis";
import { redisUrl } from "../helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../helpers/upstash-rest-bridge";
import { documentModels, lastUserText, remember, type Script } from "./fixtures/document-models";

/** What "openai/…" and "anthropic/…" answer in this file: a script each test sets. */
let script: Script = () => ({ text: "OK." });
const scripted = documentModels(() => script);
const model = scripted.model;
/** The scratch directory the examples run in. */
let directory: string;
// The document's RedisMemoryStore calls Redis.fromEnv() from the real @upstash/redis: it is pointed
// at a loopback server speaking Upstash's REST protocol to the local Redis (test/helpers).
let bridge: UpstashRestBridge;
let redis: IORedis;
const environment = { url: process.env.UPSTASH_REDIS_REST_URL, token: process.env.UPSTASH_REDIS_REST_TOKEN };
beforeAll(async () => {
  directory = scripted.directory();
  bridge = await startUpstashRestBridge();
  redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  process.env.UPSTASH_REDIS_REST_URL = bridge.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;
});
afterAll(async () => {
  for (const [name, value] of [
    ["UPSTASH_REDIS_REST_URL", environment.url],
    ["UPSTASH_REDIS_REST_TOKEN", environment.token],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await redis?.quit();
  await bridge?.close(); // deletes every key the document's store wrote
});
beforeEach(() => {
  script = () => ({ text: "OK." });
  model.calls.length = 0;
});

describe("strategy-examples.ts", () => {
  it("builds the three agents as written, each with the strategy the comments say", async () => {
    // Option A: Quick string declaration with maxMessages
    const agentSliding = new Agent({
      model: "openai/gpt-4o",
      memory: "sliding_window",
      maxMessages: 12, // Keeps system prompt + last 12 turns
    });

    // Option B: Token budget window (e.g. 3,000 token max context budget)
    const agentToken = new Agent({
      model: "anthropic/claude-3-5-sonnet",
      memory: "token_window",
      maxTokens: 3000,
    });

    // Option C: Explicit strategy class instantiation
    const agentSummary = new Agent({
      model: "openai/gpt-4o-mini",
      memory: new SummaryMemory(10, 4), // Summarize after 10 turns, retain 4 recent turns
    });

    expect(agentSliding.strategy).toBeInstanceOf(SlidingWindowMemory);
    expect(agentToken.strategy).toBeInstanceOf(TokenWindowMemory);
    expect(agentSummary.strategy).toMatchObject({ unit: "turns", summarizeThreshold: 10, recentTurns: 4 });

    // Sliding window: after 30 turns the model sees at most the last 12 (the current one among
    // them; the window's start moves a quarter at a time for stable prompt prefixes, docs/context-strategies.md).
    for (let turn = 1; turn <= 30; turn++) await agentSliding.run(`question ${turn}`);
    const seen = model.calls
      .at(-1)!
      .messages.filter((message) => message.role === "user")
      .map((message) => message.content);
    expect(seen.length).toBeGreaterThanOrEqual(9);
    expect(seen.length).toBeLessThanOrEqual(12);
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, index) => `question ${30 - seen.length + 1 + index}`));

    // Token window: a long history is cut to the 3,000-token budget, the newest turns kept.
    model.calls.length = 0;
    const long = "word ".repeat(400);
    for (let turn = 1; turn <= 12; turn++) await agentToken.run(`${turn}: ${long}`);
    const sent = model.calls.at(-1)!.messages;
    expect(sent.at(-1)).toMatchObject({ role: "user", content: `12: ${long}` });
    expect(sent.length).toBeLessThan(24);
  });

  it("new SummaryMemory(10, 4): ten turns are not summarised, the eleventh is, and 4 earlier turns stay verbatim", async () => {
    script = (call) =>
      call.system?.includes("running summary")
        ? { text: "Summary of the early questions." }
        : { text: `answer to ${lastUserText(call)}` };
    const agentSummary = new Agent({
      model: "openai/gpt-4o-mini",
      memory: new SummaryMemory(10, 4), // Summarize after 10 turns, retain 4 recent turns
    });
    const summariserCalls = () => model.calls.filter((call) => call.system?.includes("running summary")).length;
    for (let turn = 1; turn <= 10; turn++) await agentSummary.run(`question ${turn}`);
    expect(summariserCalls()).toBe(0);
    expect(model.calls.at(-1)!.messages).toHaveLength(19);

    await agentSummary.run("question 11");
    expect(summariserCalls()).toBe(1);
    const answered = model.calls.at(-1)!;
    expect(answered.system).toContain("Summary of the early questions.");
    expect(answered.messages.map((message) => message.content)).toEqual([
      ...[7, 8, 9, 10].flatMap((turn) => [`question ${turn}`, `answer to question ${turn}`]),
      "question 11",
    ]);
  });
});

describe("built-in-stores.ts", () => {
  it("keeps the agent's sessions in ./storage/agent-sessions.json", async () => {
    // 1. High-performance In-RAM store (default)
    const inMemoryStore = new InMemoryStore();

    // 2. Local File-backed JSON store (Node.js environment)
    const fileStore = new FileMemoryStore("./storage/agent-sessions.json");

    const agent = new Agent({
      model: "openai/gpt-4o",
      memory: "sliding_window",
      memoryStore: fileStore,
    });

    expect(agent.memoryStore).toBe(fileStore);
    expect(new Agent({ model: "openai/gpt-4o" }).memoryStore).toBeInstanceOf(InMemoryStore);
    expect(await inMemoryStore.getMessages("nobody")).toEqual([]);
    const result = await agent.run("Hello file store");
    const reopened = new FileMemoryStore("./storage/agent-sessions.json");
    expect((await reopened.getMessages(result.sessionId)).map((message) => message.content)).toEqual([
      "Hello file store",
      "OK.",
    ]);
    expect(readFileSync(join(directory, "storage", "agent-sessions.json"), "utf8").length).toBeGreaterThan(0);
  });
});

describe("redis-memory-store.ts (the real @upstash/redis, through a REST bridge to the local Redis)", () => {
  const sessionId = () => `doc-${globalThis.crypto.randomUUID()}`;
  const rawHash = (key: string) => redis.hgetall(key);

  it("implements MemoryStore as written and keeps the conversation", async () => {
    const { RedisMemoryStore, agentWithRedis } = await import("./fixtures/redis-memory-store");
    const store: MemoryStore = new RedisMemoryStore();
    const id = sessionId();
    await agentWithRedis.run({ input: "Hello Redis", sessionId: id });
    const stored: AgentMessage[] = await (
      agentWithRedis.memoryStore as InstanceType<typeof RedisMemoryStore>
    ).getMessages(id);
    expect(stored.map((message) => message.content)).toEqual(["Hello Redis", "OK."]);
    expect(await store.getMessages(id)).toEqual(stored);
    // It went over Upstash's REST protocol, and the client stored the history as one JSON value.
    expect(bridge.requests.some((request) => JSON.stringify(request.body).includes(`"chat:messages:${id}"`))).toBe(
      true,
    );
    expect(JSON.parse((await redis.get(`chat:messages:${id}`))!)).toEqual(stored);
  });

  it("memory tools, session scope: facts land in chat:facts:<sessionId>, reach the prompt, are recalled, forgotten, and cleared with the session", async () => {
    const { RedisMemoryStore } = await import("./fixtures/redis-memory-store");
    const store = new RedisMemoryStore();
    const agent = new Agent({ model: "openai/gpt-4o", memoryStore: store, enableMemoryTools: true, maxSteps: 3 });
    const id = sessionId();
    const toolResults: unknown[] = [];
    agent.on("tool:result", (event) => toolResults.push(event.result));

    model.calls.length = 0;
    script = (_call, index) =>
      index === 0 ? remember("tech_stack", "TypeScript, Dark Mode, Next.js") : { text: "Noted." };
    await agent.run({ input: "Remember that I prefer TypeScript and Dark Mode in Next.js.", sessionId: id });
    expect(toolResults).toEqual(["Remembered: tech_stack = TypeScript, Dark Mode, Next.js"]);
    expect(await rawHash(`chat:facts:${id}`)).toEqual({ tech_stack: "TypeScript, Dark Mode, Next.js" });
    expect(await store.getFacts(id)).toEqual({ tech_stack: "TypeScript, Dark Mode, Next.js" });

    model.calls.length = 0;
    script = (_call, index) =>
      index === 0 ? { toolCalls: [{ name: "recall_fact", arguments: { key: "tech_stack" } }] } : { text: "A button." };
    await agent.run({ input: "Generate a button.", sessionId: id });
    expect(model.calls[0]!.system).toContain('"tech_stack": "TypeScript, Dark Mode, Next.js"');
    expect(toolResults.at(-1)).toBe(JSON.stringify({ key: "tech_stack", value: "TypeScript, Dark Mode, Next.js" }));

    // Another session sees nothing of it.
    model.calls.length = 0;
    await agent.run({ input: "Hi", sessionId: sessionId() });
    expect(model.calls[0]!.system ?? "").not.toContain("tech_stack");

    model.calls.length = 0;
    script = (_call, index) =>
      index === 0 ? { toolCalls: [{ name: "forget_fact", arguments: { key: "tech_stack" } }] } : { text: "Forgotten." };
    await agent.run({ input: "Forget my stack.", sessionId: id });
    expect(toolResults.at(-1)).toBe("Forgotten: tech_stack");
    expect(await store.getFacts(id)).toEqual({});

    model.calls.length = 0;
    script = (_call, index) => (index === 0 ? remember("editor", "vim") : { text: "Noted." });
    await agent.run({ input: "I use vim.", sessionId: id });
    expect(await store.getFacts(id)).toEqual({ editor: "vim" });
    await store.clearMessages(id); // the document's clearMessages clears the session's facts too
    expect(await store.getFacts(id)).toEqual({});
    expect(await store.getMessages(id)).toEqual([]);
  });

  it("memory tools, user scope: a user's facts land in chat:facts:user:<userId> and follow the user across sessions only", async () => {
    const { RedisMemoryStore } = await import("./fixtures/redis-memory-store");
    const store = new RedisMemoryStore();
    const agent = new Agent({
      model: "openai/gpt-4o",
      memoryStore: store,
      enableMemoryTools: true,
      factScope: "user",
      maxSteps: 3,
    });
    const userId = `u-${globalThis.crypto.randomUUID()}`;
    model.calls.length = 0;
    script = (_call, index) => (index === 0 ? remember("language", "TypeScript") : { text: "Noted." });
    await agent.run({ input: "I write TypeScript.", sessionId: sessionId(), userId });
    expect(await rawHash(`chat:facts:user:${userId}`)).toEqual({ language: "TypeScript" });

    model.calls.length = 0;
    script = () => ({ text: "OK." });
    await agent.run({ input: "New chat", sessionId: sessionId(), userId });
    expect(model.calls[0]!.system).toContain('"language": "TypeScript"');

    // A session named like the user's key never reads the user's facts.
    model.calls.length = 0;
    const sessionAgent = new Agent({ model: "openai/gpt-4o", memoryStore: store, enableMemoryTools: true });
    await sessionAgent.run({ input: "Hi", sessionId: `user:${userId}` });
    expect(model.calls[0]!.system ?? "").not.toContain("TypeScript");
    model.calls.length = 0;
    script = (_call, index) => (index === 0 ? remember("language", "Rust") : { text: "Noted." });
    await sessionAgent.run({ input: "I write Rust.", sessionId: `user:${userId}` });
    expect(await rawHash(`chat:facts:user:${userId}`)).toEqual({ language: "TypeScript" });
    expect(await rawHash(`chat:facts:session:user:${userId}`)).toEqual({ language: "Rust" });
  });
});
