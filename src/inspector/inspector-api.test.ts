// The session and part endpoints read a session as runs do, by its tail: what the store returns
// for the newest page, or for an image near the end, does not grow with the session's length.
import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import type { MessageTail } from "../stores/memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import { createInspectorHandler } from "./create-inspector-handler";
import { newInspectorToken } from "./inspector-auth";
import { DEFAULT_MESSAGE_PAGE } from "./inspector-api";

const token = newInspectorToken();
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

/** An in-memory store that counts the messages it hands out, and its whole-session reads. */
class CountingStore extends InMemoryStore {
  returned = 0;
  fullReads = 0;
  override async getMessages(sessionId: string): Promise<AgentMessage[]> {
    const messages = await super.getMessages(sessionId);
    this.fullReads++;
    this.returned += messages.length;
    return messages;
  }
  override async getMessageTail(sessionId: string, limit: number): Promise<MessageTail> {
    const tail = await super.getMessageTail(sessionId, limit);
    this.returned += tail.messages.length;
    return tail;
  }
  override async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    const messages = await super.getMessageRange(sessionId, start, end);
    this.returned += messages.length;
    return messages;
  }
}

/** `count` messages; an image at index 0 and at `count - 3`. */
function session(count: number): AgentMessage[] {
  return Array.from({ length: count }, (_, index): AgentMessage => {
    const image = index === 0 || index === count - 3;
    // All user messages: any role holds an image part only there.
    return {
      id: `m${index}`,
      role: "user",
      content: image ? [{ type: "image", image: PNG, mediaType: "image/png" }] : `message ${index}`,
    };
  });
}

async function counted(count: number) {
  const store = new CountingStore();
  await store.appendMessages("s", session(count));
  store.returned = 0;
  store.fullReads = 0;
  const handler = createInspectorHandler({ store, token });
  const get = async (path: string) => {
    store.returned = 0;
    const response = await handler(
      new Request(`http://127.0.0.1:4000${path}`, { headers: { "x-inspector-token": token } }),
    );
    return { response, returned: store.returned };
  };
  return { store, get };
}

describe("the inspector's session reads", () => {
  it("pages a session from its tail: the newest page reads the same whatever the session's length", async () => {
    const returnedBySize: number[] = [];
    for (const count of [1_000, 20_000]) {
      const { store, get } = await counted(count);
      const { response, returned } = await get("/api/session?id=s");
      const body = await response.json();
      expect(body).toMatchObject({ total: count, start: count - DEFAULT_MESSAGE_PAGE });
      expect(body.messages.map((message: { index: number }) => message.index)).toEqual(
        Array.from({ length: DEFAULT_MESSAGE_PAGE }, (_, at) => count - DEFAULT_MESSAGE_PAGE + at),
      );
      expect(body.messages[0].id).toBe(`m${count - DEFAULT_MESSAGE_PAGE}`);
      returnedBySize.push(returned);

      // The page before: read from its own start to the end, never the messages before it.
      const older = await get(`/api/session?id=s&before=${count - DEFAULT_MESSAGE_PAGE}&limit=50`);
      const olderBody = await older.response.json();
      expect(olderBody.start).toBe(count - DEFAULT_MESSAGE_PAGE - 50);
      expect(olderBody.messages.map((message: { id: string }) => message.id)).toEqual(
        Array.from({ length: 50 }, (_, at) => `m${count - DEFAULT_MESSAGE_PAGE - 50 + at}`),
      );
      expect(older.returned).toBeLessThanOrEqual(DEFAULT_MESSAGE_PAGE + 50 + 1);
      expect((await (await get("/api/session?id=s&before=0")).response.json()).messages).toEqual([]);
      expect(store.fullReads).toBe(0);
    }
    expect(returnedBySize).toEqual([DEFAULT_MESSAGE_PAGE, DEFAULT_MESSAGE_PAGE]);
  });

  it("serves an image near the end from a tail read from its message, not the whole session", async () => {
    const { store, get } = await counted(20_000);
    const { response, returned } = await get("/api/part?session=s&message=19997&part=0");
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
    expect(returned).toBeLessThanOrEqual(4);
    // The first message too: read as a range of one message, not the tail from there.
    const first = await get("/api/part?session=s&message=0&part=0");
    expect(new Uint8Array(await first.response.arrayBuffer())).toEqual(PNG);
    expect(first.returned).toBe(1);
    for (const path of ["message=20000&part=0", "message=5&part=0", "message=-1&part=0", "message=x&part=0"])
      expect((await get(`/api/part?session=s&${path}`)).response.status, path).toBe(404);
    expect(store.fullReads).toBe(0);
  });

  it("reads an early page as a range: what the store returns is the page, wherever it is", async () => {
    const { store, get } = await counted(20_000);
    for (const before of [50, 10_000, 19_950]) {
      const { response, returned } = await get(`/api/session?id=s&before=${before}&limit=50`);
      const body = await response.json();
      expect(body).toMatchObject({ total: 20_000, start: before - 50 });
      expect(body.messages.map((message: { id: string }) => message.id)).toEqual(
        Array.from({ length: 50 }, (_, at) => `m${before - 50 + at}`),
      );
      expect(returned, `before=${before}`).toBe(50);
    }
    expect(store.fullReads).toBe(0);
  });

  it("pages a store without getMessageTail from one whole read per request", async () => {
    const messages = session(500);
    let fullReads = 0;
    const store = {
      getMessages: async () => {
        fullReads++;
        return structuredClone(messages);
      },
      setMessages: async () => {},
      clearMessages: async () => {},
      getFacts: async () => [],
      setFact: async () => {},
      deleteFact: async () => {},
    };
    const handler = createInspectorHandler({ store, token });
    const get = (path: string) =>
      handler(new Request(`http://127.0.0.1:4000${path}`, { headers: { "x-inspector-token": token } }));
    const body = await (await get("/api/session?id=s&before=100&limit=10")).json();
    expect(body).toMatchObject({ total: 500, start: 90 });
    expect(body.messages.map((message: { id: string }) => message.id)).toEqual(
      Array.from({ length: 10 }, (_, at) => `m${90 + at}`),
    );
    expect(fullReads).toBe(1);
    expect(new Uint8Array(await (await get("/api/part?session=s&message=497&part=0")).arrayBuffer())).toEqual(PNG);
    expect(fullReads).toBe(2);
  });
});
