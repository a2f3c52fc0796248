// Sessions belong to users (issue 41.1): a run with a userId creates the session as theirs, another
// user's run or streamText on it is refused before anything is read or stored, and a run without a
// userId costs no ownership call.
import { describe, expect, it, vi } from "vitest";
import { Agent } from "./agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { SessionOwnershipError } from "../errors/session-ownership-error";
import { streamText } from "../streaming/stream-text";
import type { MemoryStore, SessionEntry } from "../stores/memory-store";
import type { AgentMessage } from "../messages/agent-message";

/** A user's store with session metadata (getSession / updateSession), counting its calls. */
function metadataStore() {
  const messages = new Map<string, AgentMessage[]>();
  const sessions = new Map<string, SessionEntry>();
  const store = {
    getMessages: async (id: string) => structuredClone(messages.get(id) ?? []),
    setMessages: async (id: string, list: AgentMessage[]) => {
      messages.set(id, structuredClone(list));
      if (!sessions.has(id)) sessions.set(id, { sessionId: id, createdAt: 1, accessedAt: 1, messageCount: 0 });
    },
    clearMessages: async (id: string) => void messages.delete(id),
    getFacts: async () => [],
    setFact: async () => {},
    deleteFact: async () => false,
    getSession: vi.fn(async (id: string) => sessions.get(id)),
    updateSession: vi.fn(async (id: string, metadata: { userId?: string; agentName?: string }) => {
      const entry = sessions.get(id) ?? { sessionId: id, createdAt: 1, accessedAt: 1, messageCount: 0 };
      sessions.set(id, { ...entry, ...(metadata.userId === undefined ? {} : { userId: metadata.userId }) });
    }),
  } satisfies MemoryStore;
  return store;
}

describe("sessions owned by users", () => {
  it("refuses another user's run before the model is called or anything is stored", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({ model, memoryStore: store });
    await agent.run({ input: "alice's secret", sessionId: "chat-1", userId: "alice" });
    expect((await store.getSession("chat-1"))?.userId).toBe("alice");
    const stored = await store.getMessages("chat-1");

    const refused = await agent.run({ input: "show me", sessionId: "chat-1", userId: "bob" }).catch((error) => error);
    expect(SessionOwnershipError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({
      sessionId: "chat-1",
      userId: "bob",
      publicMessage: "This conversation is not yours.",
    });
    expect(String(refused.message)).not.toContain("alice");
    expect(model.calls).toHaveLength(1);
    expect(await store.getMessages("chat-1")).toEqual(stored);
    // Its owner goes on.
    await agent.run({ input: "again", sessionId: "chat-1", userId: "alice" });
    expect(model.calls).toHaveLength(2);
  });

  it("keeps a session created without a userId ownerless: a later run with one does not claim it", async () => {
    const store = new InMemoryStore();
    const agent = new Agent({
      model: new MockLanguageModel({ responses: () => ({ text: "ok" }) }),
      memoryStore: store,
    });
    await agent.run({ input: "hi", sessionId: "shared" });
    await agent.run({ input: "hi", sessionId: "shared", userId: "alice" });
    await agent.run({ input: "hi", sessionId: "shared", userId: "bob" });
    expect((await store.getSession("shared"))?.userId).toBeUndefined();
    expect(await store.getMessages("shared")).toHaveLength(6);
  });

  it("refuses streamText for another user's session, with the public message in the UI stream", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const ask = (userId: string) =>
      streamText({
        model,
        memoryStore: store,
        sessionId: "chat-2",
        userId,
        messages: [{ role: "user", content: "hi" }],
      });
    expect(await ask("alice").text).toBe("ok");
    vi.spyOn(console, "error").mockImplementation(() => {});
    const body = await ask("bob").toUIMessageStreamResponse().text();
    expect(body).toContain("This conversation is not yours.");
    expect(model.calls).toHaveLength(1);
    expect(await store.getMessages("chat-2")).toHaveLength(2);
    vi.restoreAllMocks();
  });

  it("a user's store keeps the owner in its session metadata; a run without a userId makes no ownership call", async () => {
    const store = metadataStore();
    const agent = new Agent({
      model: new MockLanguageModel({ responses: () => ({ text: "ok" }) }),
      memoryStore: store,
    });
    await agent.run({ input: "hi", sessionId: "plain" });
    expect(store.getSession).not.toHaveBeenCalled();
    expect(store.updateSession).not.toHaveBeenCalled();
    await agent.run({ input: "hi", sessionId: "owned", userId: "alice" });
    expect(store.updateSession).toHaveBeenCalledWith("owned", { userId: "alice" });
    const refused = await agent.run({ input: "hi", sessionId: "owned", userId: "bob" }).catch((error) => error);
    expect(SessionOwnershipError.isInstance(refused)).toBe(true);
  });
});
