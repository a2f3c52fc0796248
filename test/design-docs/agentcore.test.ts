// The AgentCore document's examples (seeds/001), each run as written with "agentcore" as the
// package name; the models it names answer from a MockLanguageModel registered under their
// provider (no key, no network). The converter and VectorMemoryProvider examples have their own
// files beside this one. docs/agentcore-document.md walks through them.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  Agent,
  FileMemoryStore,
  InMemoryStore,
  SlidingWindowMemory,
  SummaryMemory,
  TokenWindowMemory,
  registerProvider,
  type AgentMessage,
  type MemoryStore,
} from "agentcore";
import { MockLanguageModel, type MockCall, type MockResponse } from "agentcore/testing";
import { Redis as IORedis } from "ioredis";
import { redisUrl } from "../helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../helpers/upstash-rest-bridge";

// mem0-integration.ts loads mem0ai's MemoryClient; here it is scripted (no network).
const mem0 = vi.hoisted(() => ({ added: [] as unknown[], searched: [] as unknown[], options: [] as unknown[] }));
vi.mock("mem0ai", () => ({
  MemoryClient: class {
    constructor(options: unknown) {
      mem0.options.push(options);
    }
    async search(query: string, options: unknown) {
      mem0.searched.push({ query, options });
      return [{ id: "m1", memory: "Was working on the billing service migration last week", score: 0.9 }];
    }
    async add(messages: unknown, options: unknown) {
      mem0.added.push({ messages, options });
      return [];
    }
  },
}));

/** What "openai/…" and "anthropic/…" answer in this file: a script each test sets. */
let script: (call: MockCall, index: number) => MockResponse = () => ({ text: "OK." });
const model = new MockLanguageModel({ responses: (call, index) => script(call, index) });
const remember = (key: string, value: string): MockResponse => ({
  toolCalls: [{ name: "remember_fact", arguments: { key, value } }],
});
const lastUserText = (call: MockCall) =>
  ([...call.messages].reverse().find((message) => message.role === "user")?.content as string | undefined) ?? "";

let directory: string;
const cwd = process.cwd();
// The document's RedisMemoryStore calls Redis.fromEnv() from the real @upstash/redis: it is pointed
// at a loopback server speaking Upstash's REST protocol to the local Redis (test/helpers).
let bridge: UpstashRestBridge;
let redis: IORedis;
const environment = { url: process.env.UPSTASH_REDIS_REST_URL, token: process.env.UPSTASH_REDIS_REST_TOKEN };
beforeAll(async () => {
  bridge = await startUpstashRestBridge();
  redis = new IORedis(redisUrl, { maxRetriesPerRequest: 1 });
  process.env.UPSTASH_REDIS_REST_URL = bridge.url;
  process.env.UPSTASH_REDIS_REST_TOKEN = bridge.token;
  registerProvider("openai", () => model);
  registerProvider("anthropic", () => model);
  // The examples write to "./storage/…": run them in a scratch directory.
  directory = mkdtempSync(join(tmpdir(), "agentcore-doc-"));
  process.chdir(directory);
});
afterAll(async () => {
  process.chdir(cwd);
  rmSync(directory, { recursive: true, force: true });
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

describe("agentic-memory-demo.ts", () => {
  it("remembers the preference in turn 1 and uses it in turn 2", async () => {
    script = (call, index) => {
      if (index === 0) return remember("tech_stack", "TypeScript, Dark Mode, Next.js");
      return { text: call.system?.includes("Dark Mode") ? '<Button className="dark" /> (TypeScript)' : "<button />" };
    };
    const agent = new Agent({
      model: "openai/gpt-4o",
      systemPrompt: "You are a helpful coding assistant.",
      memory: "sliding_window",
      enableMemoryTools: true, // Enables remember_fact, recall_fact, and forget_fact
      maxSteps: 3, // Allows agent to execute memory tool and respond in 1 call
    });

    // Turn 1: User discloses a preference
    const res1 = await agent.run("Hi, remember that I prefer TypeScript and Dark Mode in Next.js.");
    // Agent executes 'remember_fact({ key: "tech_stack", value: "TypeScript, Dark Mode, Next.js" })'

    // Turn 2: In a later turn, the agent automatically recalls the saved facts!
    const res2 = await agent.run("Generate a basic button component for me.");
    expect(res1.toolCalls.map((call) => call.name)).toEqual(["remember_fact"]);
    expect(model.calls.map((call) => call.tools?.map((tool) => tool.name).sort())[0]).toEqual([
      "forget_fact",
      "recall_fact",
      "remember_fact",
    ]);
    expect(model.calls.at(-1)!.system).toContain("You are a helpful coding assistant.");
    expect(model.calls.at(-1)!.system).toContain('"tech_stack": "TypeScript, Dark Mode, Next.js"');
    expect(res2.text).toBe('<Button className="dark" /> (TypeScript)');
  });
});

describe("mem0-integration.ts (mem0ai's MemoryClient scripted)", () => {
  it("injects Mem0's memories before generation and saves the turn after it", async () => {
    vi.stubEnv("MEM0_API_KEY", "m0-test-key");
    try {
      const { Mem0Provider } = await import("agentcore");
      const mem0Provider = new Mem0Provider({
        apiKey: process.env.MEM0_API_KEY,
      });

      const agent = new Agent({
        model: "openai/gpt-4o",
        memoryProvider: mem0Provider,
      });

      // Before generation, relevant memories from Mem0 are automatically injected into prompt context.
      // After generation finishes, conversation turns are automatically saved back to Mem0.
      const res = await agent.run("What projects was I working on last week?");
      expect(res.text).toBe("OK.");
      expect(mem0.options).toEqual([expect.objectContaining({ apiKey: "m0-test-key" })]);
      expect(mem0.searched).toEqual([expect.objectContaining({ query: "What projects was I working on last week?" })]);
      // In the call's copy of the user message, before the question.
      expect(JSON.stringify(model.calls[0]!.messages[0]!.content)).toContain("billing service migration");
      expect(mem0.added).toHaveLength(1);
      expect(JSON.stringify(mem0.added[0])).toContain("What projects was I working on last week?");
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe("app/api/chat/route.ts", () => {
  const userMessage = (id: string, text: string) => ({ id, role: "user", parts: [{ type: "text", text }] });
  const post = async (POST: (req: Request) => Promise<Response>, body: unknown) =>
    await POST(
      new Request("http://localhost/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
    );
  let warn: ReturnType<typeof vi.spyOn>;
  let log: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    log = vi.spyOn(console, "log").mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
    log.mockRestore();
  });

  it("answers 200 with the streamed text, the strategy applied, the turn kept, onFinish called", async () => {
    const { POST } = await import("./fixtures/app/api/chat/route");
    script = (call) => ({ text: `You said: ${lastUserText(call)}` });
    const response = await post(POST, { messages: [userMessage("u1", "Hello route")] });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(await response.text()).toBe("You said: Hello route");
    await vi.waitFor(() =>
      expect(log).toHaveBeenCalledWith(expect.stringMatching(/^\[Session user_123\] Usage: \d+ tokens$/)),
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/no sessionId/);

    // The turn is kept in ./storage/sessions.json, in a session of its own.
    const stored = new FileMemoryStore("./storage/sessions.json");
    const sessions = await stored.entries();
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.sessionId).toMatch(/^request-/);
    expect((await stored.getMessages(sessions[0]!.sessionId)).map((message) => message.content)).toEqual([
      "Hello route",
      "You said: Hello route",
    ]);

    // sliding_window (20 turns by default) applies to the client's history.
    const history = Array.from({ length: 25 }, (_, turn) => [
      userMessage(`q${turn}`, `question ${turn}`),
      { id: `a${turn}`, role: "assistant", parts: [{ type: "text", text: `answer ${turn}` }] },
    ]).flat();
    model.calls.length = 0;
    const long = await post(POST, { messages: [...history, userMessage("last", "and now?")] });
    expect(long.status).toBe(200);
    await long.text();
    const users = model.calls[0]!.messages.filter((message) => message.role === "user").map(
      (message) => message.content,
    );
    expect(users.length).toBeGreaterThanOrEqual(15);
    expect(users.length).toBeLessThanOrEqual(20);
    expect(users.at(-1)).toBe("and now?");
  });

  it("two clients never see or change each other's conversation, whatever sessionId their body claims", async () => {
    const { POST } = await import("./fixtures/app/api/chat/route");
    script = (call, index) =>
      lastUserText(call).includes("secret") && index % 2 === 0
        ? remember("secret", "Alice's password hint is blue")
        : { text: `seen: ${call.messages.map((message) => message.content).join(" | ")}` };
    const alice = await post(POST, { messages: [userMessage("a1", "My secret hint is blue")], sessionId: "user_123" });
    expect(alice.status).toBe(200);
    await alice.text();

    model.calls.length = 0;
    const bob = await post(POST, {
      messages: [userMessage("b1", "What do you know about me?")],
      sessionId: "user_123",
    });
    expect(bob.status).toBe(200);
    expect(await bob.text()).toBe("seen: What do you know about me?");
    expect(model.calls).toHaveLength(1);
    expect(model.calls[0]!.system ?? "").not.toMatch(/blue|secret/);
    expect(JSON.stringify(model.calls[0]!.messages)).not.toMatch(/blue|secret/);

    // Each request's turn went to its own session; Bob's did not land in Alice's.
    const stored = new FileMemoryStore("./storage/sessions.json");
    const histories = await Promise.all((await stored.entries()).map((entry) => stored.getMessages(entry.sessionId)));
    const alices = histories.filter((messages) =>
      messages.some((message) => (message.content as string).includes("secret")),
    );
    const bobs = histories.filter((messages) =>
      messages.some((message) => (message.content as string).includes("What do you know")),
    );
    expect(alices).toHaveLength(1);
    expect(bobs).toHaveLength(1);
    expect(alices[0]).not.toBe(bobs[0]);
    expect(alices[0]!.some((message) => (message.content as string).includes("What do you know"))).toBe(false);
  });
});
