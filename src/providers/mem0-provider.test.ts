import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Mem0Provider, type Mem0Client } from "./mem0-provider";
import { testMemoryProvider } from "../testing/test-memory-provider";

process.env.MEM0_TELEMETRY = "false";
process.env.MEM0_DIR = mkdtempSync(join(tmpdir(), "agentcore-mem0-"));

const API_KEY = "m0-test-key";

interface FakeMemory {
  id: string;
  memory: string;
  user_id?: string;
  run_id?: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

/**
 * A loopback stand-in for the Mem0 platform: the endpoints mem0ai's MemoryClient calls, in their
 * wire format (snake_case JSON, `Token` auth). It stores each message as one memory (no LLM
 * extraction) and ranks searches by shared words.
 */
class FakeMem0 {
  memories: FakeMemory[] = [];
  requests: { method: string; path: string; authorization?: string; body?: unknown }[] = [];
  private server: Server | undefined;
  private counter = 0;

  async start(): Promise<string> {
    this.server = createServer(async (request, response) => {
      const body = await readBody(request);
      const url = new URL(request.url!, "http://localhost");
      this.requests.push({
        method: request.method!,
        path: url.pathname + url.search,
        authorization: request.headers.authorization,
        ...(body ? { body } : {}),
      });
      const send = (status: number, payload: unknown) => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify(payload));
      };
      if (request.headers.authorization !== `Token ${API_KEY}`) return send(401, { detail: "Invalid API key" });
      const route = `${request.method} ${url.pathname}`;
      if (route === "GET /v1/ping/") return send(200, { status: "ok", org_id: "org-1", project_id: "project-1" });
      if (route === "POST /v3/memories/add/") {
        const payload = body as {
          messages: { role: string; content: string }[];
          user_id?: string;
          run_id?: string;
          metadata?: Record<string, unknown>;
        };
        if (!payload.user_id && !payload.run_id)
          return send(400, { error: "One of user_id, agent_id, app_id or run_id is required." });
        for (const message of payload.messages) {
          this.memories.push({
            id: `mem-${++this.counter}`,
            memory: message.content,
            ...(payload.user_id ? { user_id: payload.user_id } : {}),
            ...(payload.run_id ? { run_id: payload.run_id } : {}),
            metadata: payload.metadata ?? {},
            created_at: new Date().toISOString(),
          });
        }
        return send(200, {
          message: "Memory processing has been queued for background execution",
          status: "PENDING",
          event_id: `event-${this.counter}`,
        });
      }
      if (route === "POST /v3/memories/search/") {
        const payload = body as { query: string; filters: Record<string, unknown>; top_k?: number };
        const words = new Set(tokens(payload.query));
        const results = this.memories
          .filter((memory) => matches(memory, payload.filters))
          .map((memory) => ({ ...memory, score: tokens(memory.memory).filter((word) => words.has(word)).length }))
          .filter((memory) => memory.score > 0)
          .sort((left, right) => right.score - left.score)
          .slice(0, payload.top_k ?? 10);
        return send(200, { results });
      }
      if (route === "POST /v3/memories/") {
        const payload = body as { filters: Record<string, unknown> };
        const results = this.memories.filter((memory) => matches(memory, payload.filters));
        return send(200, { count: results.length, next: null, previous: null, results });
      }
      if (route === "DELETE /v1/memories/") {
        const filter = Object.fromEntries(url.searchParams);
        this.memories = this.memories.filter(
          (memory) => !Object.entries(filter).every(([key, value]) => memory[key as "user_id"] === value),
        );
        return send(200, { message: "Memories deleted successfully!" });
      }
      return send(404, { detail: "Not found" });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

function tokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 2);
}

function matches(memory: FakeMemory, filters: Record<string, unknown>): boolean {
  if (Array.isArray(filters.AND))
    return (filters.AND as Record<string, unknown>[]).every((condition) => matches(memory, condition));
  if (Object.keys(filters).length === 0) throw new Error("filters must name an entity");
  return Object.entries(filters).every(([key, value]) => memory[key as "user_id" | "run_id"] === value);
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

const fake = new FakeMem0();
let host = "";
beforeAll(async () => {
  host = await fake.start();
});
afterAll(() => fake.stop());
afterAll(() => rmSync(process.env.MEM0_DIR!, { recursive: true, force: true }));

testMemoryProvider(
  "Mem0Provider (mem0ai MemoryClient against a loopback fake, user scope)",
  () => {
    fake.memories = [];
    return new Mem0Provider({ apiKey: API_KEY, host });
  },
  { scope: "user" },
);
testMemoryProvider(
  "Mem0Provider (session scope)",
  () => {
    fake.memories = [];
    return new Mem0Provider({ apiKey: API_KEY, host, scope: "session" });
  },
  { scope: "session" },
);

describe("Mem0Provider on the wire", () => {
  beforeEach(() => {
    fake.memories = [];
    fake.requests = [];
  });

  it("sends the v3 requests mem0 expects: Token auth, user_id/run_id, filters", async () => {
    const provider = new Mem0Provider({
      apiKey: API_KEY,
      host: `${host}/`,
      infer: false,
      searchOptions: { threshold: 0.2 },
    });
    await provider.write(
      [
        { id: "m1", role: "user", content: "I am vegetarian." },
        { id: "m2", role: "assistant", content: "Noted: vegetarian." },
        { id: "m3", role: "tool", toolCallId: "c", name: "t", content: "not sent" },
      ],
      { sessionId: "s1", userId: "u1", agentName: "chef", tags: ["diet"] },
    );
    const records = await provider.read({ sessionId: "s2", userId: "u1", query: "Is the user vegetarian?", limit: 2 });
    expect(records.map((record) => record.content)).toEqual(["I am vegetarian.", "Noted: vegetarian."]);
    expect(records[0]!.metadata).toMatchObject({ agentName: "chef", tags: ["diet"], messageIds: ["m1", "m2"] });

    const add = fake.requests.find((request) => request.path === "/v3/memories/add/")!;
    expect(add.authorization).toBe(`Token ${API_KEY}`);
    expect(add.body).toEqual({
      messages: [
        { role: "user", content: "I am vegetarian." },
        { role: "assistant", content: "Noted: vegetarian." },
      ],
      user_id: "u1",
      run_id: "s1",
      infer: false,
      metadata: { agentName: "chef", tags: ["diet"], messageIds: ["m1", "m2"] },
    });
    const search = fake.requests.find((request) => request.path === "/v3/memories/search/")!;
    expect(search.body).toMatchObject({
      query: "Is the user vegetarian?",
      filters: { user_id: "u1" },
      top_k: 2,
      threshold: 0.2,
    });
  });

  it("session scope filters on run_id AND user_id; clear and entries are scoped", async () => {
    const provider = new Mem0Provider({ apiKey: API_KEY, host, scope: "session" });
    await provider.write([{ role: "user", content: "Session one note about kites." }], {
      sessionId: "s1",
      userId: "u1",
    });
    await provider.read({ sessionId: "s1", userId: "u1", query: "kites" });
    const search = fake.requests.find((request) => request.path === "/v3/memories/search/")!;
    expect((search.body as { filters: unknown }).filters).toEqual({ AND: [{ user_id: "u1" }, { run_id: "s1" }] });
    expect(
      (await provider.entries({ sessionId: "s1", userId: "u1" })).map((entry) => [
        entry.content,
        entry.sessionId,
        entry.userId,
      ]),
    ).toEqual([["Session one note about kites.", "s1", "u1"]]);
    await provider.clear({ sessionId: "s1", userId: "u1" });
    expect(fake.requests.at(-1)).toMatchObject({ method: "DELETE", path: "/v1/memories/?user_id=u1&run_id=s1" });
    await expect(provider.clear()).rejects.toThrow(/needs a userId or sessionId/);
  });

  it("turns a rejected key into a MemoryProviderError the agent can report", async () => {
    const provider = new Mem0Provider({ apiKey: "wrong-key", host });
    await expect(provider.read({ userId: "u", query: "anything" })).rejects.toMatchObject({
      name: "MemoryProviderError",
      provider: "mem0",
      operation: "read",
    });
  });
});

describe("Mem0Provider with an injected client", () => {
  function recordingClient(answer: unknown): Mem0Client & { calls: unknown[][] } {
    const calls: unknown[][] = [];
    return {
      calls,
      add: async (...args) => {
        calls.push(["add", ...args]);
        return { status: "PENDING" };
      },
      search: async (...args) => {
        calls.push(["search", ...args]);
        return answer;
      },
    };
  }

  it("uses the client as given and never imports mem0ai", async () => {
    const client = recordingClient({ results: [{ id: 1, memory: "Likes jazz", score: 0.9, user_id: "u" }] });
    const provider = new Mem0Provider({ client });
    expect(await provider.read({ userId: "u", query: "music", limit: 3 })).toEqual([
      { id: "1", content: "Likes jazz", score: 0.9, metadata: { createdAt: 0 } },
    ]);
    expect(client.calls).toEqual([["search", "music", { filters: { user_id: "u" }, topK: 3 }]]);
    await provider.write([{ role: "user", content: "I like jazz" }], { userId: "u" });
    expect(client.calls[1]).toEqual([
      "add",
      [{ role: "user", content: "I like jazz" }],
      { userId: "u", infer: true, metadata: { messageIds: [] } },
    ]);
  });

  it("drops memories mem0 labels with another user, and filters tags", async () => {
    const client = recordingClient([
      { id: "a", memory: "mine", user_id: "u", metadata: { tags: ["t"] } },
      { id: "b", memory: "someone else's", user_id: "intruder", metadata: { tags: ["t"] } },
      { id: "c", memory: "untagged", user_id: "u" },
    ]);
    const provider = new Mem0Provider({ client });
    expect((await provider.read({ userId: "u", query: "q", tags: ["t"] })).map((record) => record.content)).toEqual([
      "mine",
    ]);
  });

  it("takes key/value tags: writes them as key=value and filters reads by key and value", async () => {
    const client = recordingClient([
      { id: "a", memory: "billing memory", user_id: "u", metadata: { tags: ["topic=billing", "priority=high"] } },
      { id: "b", memory: "auth memory", user_id: "u", metadata: { tags: ["topic=auth"] } },
    ]);
    const provider = new Mem0Provider({ client });
    await provider.write([{ role: "user", content: "about my invoice" }], { userId: "u", tags: { topic: "billing" } });
    expect(client.calls[0]).toEqual([
      "add",
      [{ role: "user", content: "about my invoice" }],
      { userId: "u", infer: true, metadata: { tags: ["topic=billing"], messageIds: [] } },
    ]);
    const records = await provider.read({ userId: "u", query: "q", tags: { topic: "billing", priority: "high" } });
    expect(records.map((record) => record.content)).toEqual(["billing memory"]);
  });

  it("rejects a malformed answer with a typed error", async () => {
    const provider = new Mem0Provider({ client: recordingClient({ results: [{ memory: "no id" }] }) });
    await expect(provider.read({ userId: "u", query: "q" })).rejects.toThrow(/bad memory at index 0: id/);
    const notAList = new Mem0Provider({ client: recordingClient({ oops: true }) });
    await expect(notAList.read({ userId: "u", query: "q" })).rejects.toThrow(/neither a list/);
  });

  it("says how to fix a missing API key", () => {
    const saved = process.env.MEM0_API_KEY;
    delete process.env.MEM0_API_KEY;
    try {
      expect(() => new Mem0Provider()).toThrow(/pass \{ apiKey \} or set MEM0_API_KEY/);
    } finally {
      if (saved !== undefined) process.env.MEM0_API_KEY = saved;
    }
  });
});
