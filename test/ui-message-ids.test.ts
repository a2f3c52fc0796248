// The ids a page shows are the ids the store keeps, without a reload: the user message `useChat`
// sends is stored under its client id, and the `start` chunk announces the id the answer is
// stored under (its first assistant message's, which `convertToUIMessages` gives the UI message).
// So `useChat`'s edit (`sendMessage({ text, messageId })`) and `regenerate({ messageId })` work on
// any message the page shows, reloaded or not. Driven by the AI SDK's own chat client
// (`AbstractChat`, what `useChat` wraps) through `streamText` and an agent on a real store.
import type { UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentMessage } from "../src/messages/agent-message";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { PostgresMemoryStore } from "../src/stores/postgres/postgres-memory-store";
import { RedisMemoryStore } from "../src/stores/redis/redis-memory-store";
import { streamText } from "../src/streaming/stream-text";
import { SlidingWindowMemory } from "../src/strategies/sliding-window";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { convertToModelMessages } from "../src/ui/convert-to-model-messages";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import { openStoreServers } from "./helpers/store-servers";
import { chatRoute, type PageChat, pageChats } from "./helpers/use-chat";

const { redisPrefix, schema, postgres, redis } = await openStoreServers("agentcore-ui-ids", { postgresConnections: 4 });

let counter = 0;
const stores: [string, (() => MemoryStore) | undefined][] = [
  ["InMemoryStore", () => new InMemoryStore()],
  ["PostgresMemoryStore", postgres && (() => new PostgresMemoryStore({ pool: postgres, schema }))],
  ["RedisMemoryStore", redis && (() => new RedisMemoryStore({ client: redis, prefix: redisPrefix }))],
];

const textOf = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
const shape = (messages: readonly AgentMessage[]) =>
  messages.map((message) => `${message.role}: ${typeof message.content === "string" ? message.content : "[parts]"}`);
const seen = (model: MockLanguageModel, call: number) =>
  model.calls[call]!.messages.map((message) => `${message.role}: ${String(message.content)}`);

/** The page's ids are those of the stored history shown again (a reload): the same messages, the same ids. */
async function expectSameIds(page: PageChat, store: MemoryStore, sessionId: string): Promise<void> {
  expect(page.error).toBeUndefined();
  const reloaded = convertToUIMessages(await store.getMessages(sessionId));
  expect(page.messages.map((message) => [message.role, message.id, textOf(message)])).toEqual(
    reloaded.map((message) => [message.role, message.id, textOf(message as UIMessage)]),
  );
}

// Every store with ai 6's useChat client; the in-memory store with ai 7's as well.
const cases = stores.flatMap(([name, makeStore]) =>
  pageChats
    .filter(([line]) => line === "ai 6" || name === "InMemoryStore")
    .map(([line, Page]) => [name, makeStore, line, Page] as const),
);

for (const [name, makeStore, line, Page] of cases) {
  describe.skipIf(!makeStore)(`ids a page shows are the stored ids, on ${name} (${line}'s useChat)`, () => {
    it("edits the first user message and regenerates a middle answer of a page that was never reloaded", async () => {
      const store = makeStore!();
      const sessionId = `page-${counter++}`;
      const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
      const page = new Page(chatRoute(store, model, { sessionId }));
      await page.sendMessage({ text: "first" });
      await page.sendMessage({ text: "second" });
      await page.sendMessage({ text: "third" });
      await expectSameIds(page, store, sessionId);
      // The user messages keep the ids useChat made for them.
      const stored = await store.getMessages(sessionId);
      expect(stored.filter((message) => message.role === "user").map((message) => message.id)).toEqual(
        page.messages.filter((message) => message.role === "user").map((message) => message.id),
      );

      // Regenerate the answer to "second" (useChat cuts the page before it and names it).
      await page.regenerate({ messageId: page.messages[3]!.id });
      expect(seen(model, 3)).toEqual(["user: first", "assistant: answer 0", "user: second"]);
      expect(shape(await store.getMessages(sessionId))).toEqual([
        "user: first",
        "assistant: answer 0",
        "user: second",
        "assistant: answer 3",
      ]);
      await expectSameIds(page, store, sessionId);

      // Edit the first user message, sent on this page.
      const firstId = page.messages[0]!.id;
      await page.sendMessage({ text: "first, edited", messageId: firstId });
      expect(seen(model, 4)).toEqual(["user: first, edited"]);
      const edited = await store.getMessages(sessionId);
      expect(shape(edited)).toEqual(["user: first, edited", "assistant: answer 4"]);
      expect(edited[0]!.id).toBe(firstId);
      await expectSameIds(page, store, sessionId);

      // And once more on the regenerated answer, which this page also only saw streamed.
      await page.regenerate({ messageId: page.messages[1]!.id });
      expect(seen(model, 5)).toEqual(["user: first, edited"]);
      expect(shape(await store.getMessages(sessionId))).toEqual(["user: first, edited", "assistant: answer 5"]);
      await expectSameIds(page, store, sessionId);
      expect(model.calls).toHaveLength(6);
    });

    it("an answer of several steps carries its first assistant message's id, and regenerating it answers its question again", async () => {
      const store = makeStore!();
      const sessionId = `steps-${counter++}`;
      const lookup = tool({
        description: "Look up a word",
        parameters: z.object({ word: z.string() }),
        execute: async ({ word }) => ({ word, meaning: "a meaning" }),
      });
      let call = 0;
      const model = new MockLanguageModel({
        responses: () =>
          call++ % 2 === 0
            ? { toolCalls: [{ name: "lookup", arguments: { word: `w${call}` } }] }
            : { text: `answer ${call}` },
      });
      const page = new Page(chatRoute(store, model, { sessionId, tools: { lookup } }));
      await page.sendMessage({ text: "define w" });
      await page.sendMessage({ text: "define v" });
      const stored = await store.getMessages(sessionId);
      expect(stored.map((message) => message.role)).toEqual([
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
        "assistant",
        "tool",
        "assistant",
      ]);
      await expectSameIds(page, store, sessionId);
      expect(page.messages[1]!.id).toBe(stored[1]!.id);

      await page.regenerate({ messageId: page.messages[1]!.id });
      expect(seen(model, 4)).toEqual(["user: define w"]);
      expect(shape(await store.getMessages(sessionId)).slice(0, 1)).toEqual(["user: define w"]);
      expect(await store.getMessages(sessionId)).toHaveLength(4);
      await expectSameIds(page, store, sessionId);
    });

    it("a user message id the session already holds gets a new id: the message is stored, nothing else changes", async () => {
      const store = makeStore!();
      const sessionId = `duplicate-${counter++}`;
      const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
      const page = new Page(chatRoute(store, model, { sessionId }));
      await page.sendMessage({ text: "first" });
      const before = await store.getMessages(sessionId);
      for (const taken of [before[0]!.id!, before[1]!.id!]) {
        await streamText({
          model,
          messages: convertToModelMessages([{ id: taken, role: "user", parts: [{ type: "text", text: "again" }] }]),
          sessionId,
          memoryStore: store,
        }).response;
      }
      const after = await store.getMessages(sessionId);
      expect(after.slice(0, 2)).toEqual(before);
      expect(shape(after)).toEqual([
        "user: first",
        "assistant: answer 0",
        "user: again",
        "assistant: answer 1",
        "user: again",
        "assistant: answer 2",
      ]);
      expect(new Set(after.map((message) => message.id)).size).toBe(6);
    });

    it("an id reused from beyond the tail a window reads is not lost: the store skipped it, it is stored again under a new id", async () => {
      const store = makeStore!();
      const sessionId = `beyond-tail-${counter++}`;
      const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
      // A hand-made client that sends every message with the same id; the window reads a short tail.
      const route = chatRoute(store, model, { sessionId, memory: new SlidingWindowMemory({ maxTurns: 1 }) });
      // The window reads a tail of 19 messages (3 a turn and a margin of 16): 14 turns reach past it.
      for (let turn = 0; turn < 14; turn++) {
        const response = await route(
          new Request("http://localhost/api/chat", {
            method: "POST",
            body: JSON.stringify({
              messages: [{ id: "msg-1", role: "user", parts: [{ type: "text", text: `q${turn}` }] }],
            }),
          }),
        );
        await response.text();
      }
      const stored = await store.getMessages(sessionId);
      expect(shape(stored).filter((line) => line.startsWith("user"))).toEqual(
        Array.from({ length: 14 }, (_, turn) => `user: q${turn}`),
      );
      expect(stored).toHaveLength(28);
      expect(new Set(stored.map((message) => message.id)).size).toBe(28);
      expect(stored[0]!.id).toBe("msg-1");
    });
  });
}

describe("the client's user message id is checked (it is untrusted input)", () => {
  it("a malformed id (a control character, a lone surrogate) is not stored: the message gets a new id", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    for (const id of ["bad\u0000id", "bad\ud800id"]) {
      await streamText({ model, messages: [{ id, role: "user", content: "hi" }], sessionId: "s", memoryStore: store })
        .response;
    }
    const stored = await store.getMessages("s");
    expect(stored).toHaveLength(4);
    expect(stored.filter((message) => message.role === "user").map((message) => message.id)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });

  it("agent.run() and a request without ids keep making fresh ids", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const result = streamText({
      model,
      messages: [{ role: "user", content: "hi" }],
      sessionId: "s",
      memoryStore: store,
    });
    const chunks = [];
    for await (const chunk of result.toUIMessageStream()) chunks.push(chunk);
    const stored = await store.getMessages("s");
    expect(stored.map((message) => message.id)).toEqual([expect.any(String), expect.any(String)]);
    expect(chunks[0]).toEqual({ type: "start", messageId: stored[1]!.id });
  });
});
