// A request sent twice runs once (DESIGN.md §2; issue 46.2): the same useChat body (same user
// message id, same content) sent again after the first finished, or both at once, calls the model
// once, runs a side-effecting tool once and stores the turn once; the retry is answered with the
// stored turn, streamed under the stored answer's id. On every built-in store.
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { SlidingWindowMemory } from "../src/strategies/sliding-window";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { convertToUIMessages } from "../src/ui/convert-to-ui-messages";
import { openStoreServers, persistentStores } from "./helpers/store-servers";
import { chatRoute } from "./helpers/use-chat";

const servers = await openStoreServers("agentcore-retries", { postgresConnections: 6 });
const stores: [string, ((key: string) => MemoryStore) | undefined][] = persistentStores(servers);
stores.push(["InMemoryStore", () => new InMemoryStore()]);

let sessions = 0;

/** A route whose model calls book_table once, then answers; the tool counts its runs. */
function setup(store: MemoryStore, memory?: SlidingWindowMemory) {
  const booked: string[] = [];
  const model = new MockLanguageModel({
    responses: (call) =>
      call.messages.at(-1)?.role === "tool"
        ? { text: "Booked for two." }
        : { text: "Booking.", toolCalls: [{ id: `call_${sessions}`, name: "book_table", arguments: { name: "Ada" } }] },
  });
  const tools = {
    book_table: tool({
      parameters: z.object({ name: z.string() }),
      execute: async ({ name }) => {
        booked.push(name);
        return { booked: true };
      },
    }),
  };
  const sessionId = `retry-${++sessions}`;
  const route = chatRoute(store, model, { sessionId, tools, ...(memory ? { memory } : {}) });
  return { booked, model, sessionId, route };
}

const body = (id: string, text: string) =>
  JSON.stringify({ trigger: "submit-message", messages: [{ id, role: "user", parts: [{ type: "text", text }] }] });

/** POSTs the body and folds the UI stream with the AI SDK's own reader (failing on a bad chunk). */
async function post(route: (request: Request) => Promise<Response>, payload: string): Promise<UIMessage> {
  const response = await route(new Request("http://localhost/api/chat", { method: "POST", body: payload }));
  const text = await response.text();
  const chunks = text
    .split("\n\n")
    .filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
    .map((event) => JSON.parse(event.slice("data: ".length)) as UIMessageChunk);
  expect(chunks.filter((chunk) => chunk.type === "error")).toEqual([]);
  let last: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const message of readUIMessageStream({ stream, terminateOnError: true })) last = message;
  return last!;
}

const partsOf = (message: UIMessage) =>
  message.parts.filter((part) => part.type !== "step-start").map((part) => JSON.stringify(part));

for (const [name, makeStore] of stores) {
  describe.skipIf(!makeStore)(`a request sent twice runs once, on ${name}`, () => {
    it("sent again after the first finished: one model call per step, the tool run once, the turn stored once", async () => {
      const store = makeStore!("again");
      const { booked, model, sessionId, route } = setup(store);
      const first = await post(route, body("u-1", "Book a table for Ada"));
      const stored = await store.getMessages(sessionId);
      const second = await post(route, body("u-1", "Book a table for Ada"));
      expect(model.calls).toHaveLength(2);
      expect(booked).toEqual(["Ada"]);
      expect(await store.getMessages(sessionId)).toEqual(stored);
      // The retry is answered with the stored turn, under the stored answer's id, as a reload shows it.
      const reloaded = convertToUIMessages(stored).at(-1)! as UIMessage;
      expect(second.id).toBe(reloaded.id);
      expect(first.id).toBe(reloaded.id);
      expect(partsOf(second)).toEqual(partsOf(first));
    });

    it("both at once: the second waits for the first under the session's lock and gets the same answer", async () => {
      const store = makeStore!("concurrent");
      const { booked, model, sessionId, route } = setup(store);
      const [a, b] = await Promise.all([
        post(route, body("u-2", "Book a table for Ada")),
        post(route, body("u-2", "Book a table for Ada")),
      ]);
      expect(model.calls).toHaveLength(2);
      expect(booked).toEqual(["Ada"]);
      const stored = await store.getMessages(sessionId);
      expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
      expect(a.id).toBe(b.id);
      expect(partsOf(a)).toEqual(partsOf(b));
    });

    it("a retry of a turn beyond the tail the window reads is answered from the store, not run again", async () => {
      const store = makeStore!("beyond");
      const { booked, model, sessionId, route } = setup(store, new SlidingWindowMemory({ maxTurns: 1 }));
      await post(route, body("u-old", "Book a table for Ada"));
      for (let turn = 0; turn < 8; turn++) await post(route, body(`u-${turn}`, `Book a table for Ada, turn ${turn}`));
      const calls = model.calls.length;
      const storedCount = (await store.getMessages(sessionId)).length;
      const retried = await post(route, body("u-old", "Book a table for Ada"));
      expect(model.calls).toHaveLength(calls);
      expect(booked).toHaveLength(9);
      expect(await store.getMessages(sessionId)).toHaveLength(storedCount);
      expect(retried.parts.at(-1)).toMatchObject({ type: "text", text: "Booked for two." });
    });

    it("the same id with other content is a new message (stored under a new id) and runs", async () => {
      const store = makeStore!("reused");
      const { booked, model, sessionId, route } = setup(store);
      await post(route, body("u-3", "Book a table for Ada"));
      await post(route, body("u-3", "Book one more for Ada"));
      expect(model.calls).toHaveLength(4);
      expect(booked).toEqual(["Ada", "Ada"]);
      const users = (await store.getMessages(sessionId)).filter((message) => message.role === "user");
      expect(users.map((message) => message.content)).toEqual(["Book a table for Ada", "Book one more for Ada"]);
      expect(users[1]!.id).not.toBe("u-3");
    });
  });
}
