import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { deleteKeysWithPrefix, postgresUrl, redisUrl, serviceAvailable, uniqueName } from "../../test/helpers/services";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MessageNotFoundError } from "../errors/message-not-found-error";
import { NothingToRegenerateError } from "../errors/nothing-to-regenerate-error";
import type { AgentMessage } from "../messages/agent-message";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { PostgresMemoryStore } from "../stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../stores/redis/redis-memory-store";
import { SqliteMemoryStore } from "../stores/sqlite/sqlite-memory-store";
import { MockLanguageModel, type MockCall } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { z } from "zod";
import { Agent } from "./agent";

const directory = mkdtempSync(join(tmpdir(), "agentcore-regenerate-"));
const [redisUp, postgresUp] = [await serviceAvailable("redis"), await serviceAvailable("postgres")];
const redis = redisUp ? new Redis(redisUrl) : undefined;
const pool = postgresUp ? new pg.Pool({ connectionString: postgresUrl, max: 4 }) : undefined;
const prefix = `${uniqueName("agentcore-regenerate")}:`;
const schema = uniqueName("agentcore_regenerate").toLowerCase();
afterAll(async () => {
  rmSync(directory, { recursive: true, force: true });
  if (redis) {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  }
  if (pool) {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

let counter = 0;
const stores: (readonly [string, () => MemoryStore])[] = [
  ["InMemoryStore", () => new InMemoryStore()],
  ["FileMemoryStore", () => new FileMemoryStore(join(directory, `store-${counter++}.json`))],
  ["SqliteMemoryStore", () => new SqliteMemoryStore(join(directory, `store-${counter++}.db`))],
  ...(redis
    ? [["RedisMemoryStore", () => new RedisMemoryStore({ client: redis, prefix: `${prefix}${counter++}:` })] as const]
    : []),
  ...(pool
    ? [["PostgresMemoryStore", () => new PostgresMemoryStore({ pool, schema, tablePrefix: `r${counter++}_` })] as const]
    : []),
];

/** A model answering `answer <n>` to call n, recording what it was sent. */
const numbered = () => new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
/** What a model call was sent, as role: text. */
const sent = (call: MockCall) => call.messages.map((message) => `${message.role}: ${String(message.content)}`);
const shape = (messages: AgentMessage[]) => messages.map((message) => `${message.role}: ${String(message.content)}`);

describe.each(stores)("regenerate and edit through agent.run on %s", (_name, factory) => {
  it("regenerate replaces the last answer: the model sees the history without it, the store keeps the user message (same id) and the new answer", async () => {
    const store = factory();
    const model = numbered();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    await agent.run("first question");
    await agent.run("second question");
    const before = await store.getMessages("s");
    const result = await agent.run({ sessionId: "s", regenerate: true });
    expect(result.text).toBe("answer 2");
    expect(sent(model.calls[2]!)).toEqual(["user: first question", "assistant: answer 0", "user: second question"]);
    const after = await store.getMessages("s");
    expect(shape(after)).toEqual([
      "user: first question",
      "assistant: answer 0",
      "user: second question",
      "assistant: answer 2",
    ]);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3)); // ids and timestamps kept
    // Again: still one answer to the question.
    await agent.run({ sessionId: "s", regenerate: true });
    expect(shape(await store.getMessages("s")).slice(2)).toEqual(["user: second question", "assistant: answer 3"]);
  });

  it("replaceFrom edits a user message: it and everything after it give way to the new input and its answer", async () => {
    const store = factory();
    const model = numbered();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    await agent.run("first question");
    await agent.run("second question");
    const [firstQuestion] = await store.getMessages("s");
    await agent.run({ input: "first question, edited", sessionId: "s", replaceFrom: firstQuestion!.id! });
    expect(sent(model.calls[2]!)).toEqual(["user: first question, edited"]);
    const after = await store.getMessages("s");
    expect(shape(after)).toEqual(["user: first question, edited", "assistant: answer 2"]);
    expect(after[0]!.id).not.toBe(firstQuestion!.id);
    // The next turn follows the edited history.
    await agent.run("third question");
    expect(sent(model.calls[3]!)).toEqual([
      "user: first question, edited",
      "assistant: answer 2",
      "user: third question",
    ]);
  });

  it("a model error during a regenerate changes nothing: the old answer stays", async () => {
    const store = factory();
    const failing = new MockLanguageModel({
      responses: (_call, index) => (index === 0 ? { text: "the old answer" } : { error: new Error("model down") }),
    });
    const agent = new Agent({ model: failing, memoryStore: store, sessionId: "s" });
    await agent.run("question");
    const before = await store.getMessages("s");
    await expect(agent.run({ sessionId: "s", regenerate: true })).rejects.toThrow(/model down/);
    await expect(agent.run({ input: "edited", sessionId: "s", replaceFrom: before[0]!.id! })).rejects.toThrow(
      /model down/,
    );
    expect(await store.getMessages("s")).toEqual(before);
  });
});

describe("regenerate and edit: the whole turn and bad requests", () => {
  it("regenerate removes a tool-calling turn whole (calls, results, answer) and keeps the pairing rule", async () => {
    const store = new InMemoryStore();
    let call = 0;
    const model = new MockLanguageModel({
      responses: () => {
        call++;
        return call === 1
          ? { toolCalls: [{ id: "c1", name: "lookup", arguments: { q: "x" } }] }
          : { text: `answer ${call}` };
      },
    });
    const lookup = tool({
      description: "Looks up",
      parameters: z.object({ q: z.string() }),
      execute: async () => "found",
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { lookup }, maxSteps: 3 });
    await agent.run("look it up");
    expect((await store.getMessages("s")).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
    ]);
    await agent.run({ sessionId: "s", regenerate: true });
    const after = await store.getMessages("s");
    expect(shape(after)).toEqual(["user: look it up", "assistant: answer 3"]);
    expect(isToolPairingValid(after)).toBe(true);
    expect(sent(model.calls[2]!)).toEqual(["user: look it up"]);
  });

  it("an aborted regenerate changes nothing", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: (_call, index) => ({ text: index === 0 ? "kept answer" : "a long answer that is cut short" }),
      chunkSize: 1,
      chunkDelayMs: 5,
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    await agent.run("question");
    const before = await store.getMessages("s");
    const controller = new AbortController();
    const stream = agent.stream({ sessionId: "s", regenerate: true, signal: controller.signal });
    for await (const _delta of stream.textStream) {
      controller.abort();
      break;
    }
    await stream.text.catch(() => {});
    expect(await store.getMessages("s")).toEqual(before);
  });

  it("answers a last user message that has no answer yet (a failed run left it) without duplicating it", async () => {
    const store = new InMemoryStore();
    await store.setMessages("s", [{ id: "u1", role: "user", content: "unanswered", timestamp: 1 }]);
    const agent = new Agent({ model: numbered(), memoryStore: store, sessionId: "s" });
    await agent.run({ sessionId: "s", regenerate: true });
    expect(shape(await store.getMessages("s"))).toEqual(["user: unanswered", "assistant: answer 0"]);
  });

  it("refuses what cannot be regenerated or edited with typed errors, changing nothing", async () => {
    const store = new InMemoryStore();
    const model = numbered();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    await expect(agent.run({ sessionId: "empty", regenerate: true })).rejects.toSatisfy(
      (error) => NothingToRegenerateError.isInstance(error) && error.reason === "empty" && error.sessionId === "empty",
    );
    await store.setMessages("no-user", [{ id: "a", role: "assistant", content: "hello" }]);
    await expect(agent.run({ sessionId: "no-user", regenerate: true })).rejects.toSatisfy(
      (error) => NothingToRegenerateError.isInstance(error) && error.reason === "no-user-message",
    );
    await agent.run("question");
    const before = await store.getMessages("s");
    await expect(agent.run({ input: "edit", sessionId: "s", replaceFrom: "nope" })).rejects.toSatisfy(
      (error) => MessageNotFoundError.isInstance(error) && error.messageId === "nope" && error.sessionId === "s",
    );
    await expect(agent.run({ input: "edit", sessionId: "s", replaceFrom: before[1]!.id! })).rejects.toSatisfy(
      (error) => InvalidArgumentError.isInstance(error) && error.argument === "replaceFrom",
    );
    for (const [options, argument] of [
      [{ sessionId: "s", regenerate: true, input: "x" }, "input"],
      [{ sessionId: "s", regenerate: true, replaceFrom: before[0]!.id! }, "replaceFrom"],
      [{ sessionId: "s", regenerate: "yes" }, "regenerate"],
      [{ input: "x", sessionId: "s", replaceFrom: "" }, "replaceFrom"],
      [{ sessionId: "s", replaceFrom: before[0]!.id! }, "input"],
    ] as const) {
      await expect(agent.run(options as never)).rejects.toSatisfy(
        (error) => InvalidArgumentError.isInstance(error) && error.argument === argument,
      );
    }
    expect(await store.getMessages("s")).toEqual(before);
    expect(await store.getMessages("no-user")).toEqual([{ id: "a", role: "assistant", content: "hello" }]);
    expect(model.calls).toHaveLength(1);
  });
});
