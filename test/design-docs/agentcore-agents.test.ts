// The AgentCore document's agent examples (seeds/001): the agentic memory demo, the Mem0 integration
// (mem0ai's MemoryClient scripted) and the Next.js route, each run as written with "agentcore" as the
// package name and the models it names answering from a MockLanguageModel (no key, no network).
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { Agent, FileMemoryStore } from "agentcore";
import { documentModels, lastUserText, remember, type Script } from "./fixtures/document-models";

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
let script: Script = () => ({ text: "OK." });
const scripted = documentModels(() => script);
const model = scripted.model;
beforeEach(() => {
  script = () => ({ text: "OK." });
  model.calls.length = 0;
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
