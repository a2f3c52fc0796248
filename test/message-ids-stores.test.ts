// Message ids and tool call ids that differ only by a lone surrogate used to merge on PostgreSQL
// and Redis ("id\ud800" is stored as "id\ufffd", so a later "id\ufffd" was skipped as a
// duplicate and lost: issue 30, item 8). Every built-in store now refuses such ids, and control
// characters, with an InvalidMessageError naming the message and field; the agent replaces a
// model's tool call id of that kind with a new one, so its runs are never refused.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { InvalidMessageError } from "../src/errors/invalid-message-error";
import type { AgentMessage } from "../src/messages/agent-message";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { openStoreServers, persistentStores } from "./helpers/store-servers";

const servers = await openStoreServers("agentcore-message-ids", { postgresConnections: 4 });

let counter = 0;
const stores: [string, (() => MemoryStore) | undefined][] = [
  ...persistentStores(servers),
  ["InMemoryStore", () => new InMemoryStore()],
];

/** The InvalidMessageError a store call rejects with. */
async function refusal(write: Promise<unknown>): Promise<InvalidMessageError> {
  const error = await write.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!InvalidMessageError.isInstance(error)) throw new Error(`expected an InvalidMessageError, got ${String(error)}`);
  return error;
}

for (const [name, makeStore] of stores) {
  describe.skipIf(!makeStore)(`message ids on ${name}`, () => {
    it("refuses an id with a lone surrogate instead of merging it with its U+FFFD twin", async () => {
      const store = makeStore!();
      const session = `merge-${counter++}`;
      const error = await refusal(
        store.appendMessages!(session, [{ id: "id\ud800", role: "user", content: "first", timestamp: 1 }]),
      );
      expect(error.issues).toEqual([{ index: 0, path: "id", message: expect.stringMatching(/lone surrogate/) }]);
      await store.appendMessages!(session, [{ id: "id\ufffd", role: "user", content: "second", timestamp: 2 }]);
      expect((await store.getMessages(session)).map((message) => [message.id, message.content])).toEqual([
        ["id\ufffd", "second"],
      ]);
    });

    it("refuses control characters and lone surrogates in message and tool call ids, naming each, on append and set", async () => {
      const store = makeStore!();
      const session = `fields-${counter++}`;
      const turn: AgentMessage[] = [
        { id: "fine", role: "user", content: "go", timestamp: 1 },
        {
          id: "a\u0000b",
          role: "assistant",
          content: "",
          toolCalls: [
            { id: "call_ok", name: "t", arguments: {} },
            { id: "call\udc00", name: "t", arguments: {} },
          ],
          timestamp: 2,
        },
        { id: "r1", role: "tool", toolCallId: "call_ok", name: "t", content: "ok", timestamp: 3 },
        { id: "r2", role: "tool", toolCallId: "call\udc00", name: "t", content: "ok", timestamp: 4 },
      ];
      for (const write of [store.appendMessages!(session, turn), store.setMessages(session, turn)]) {
        expect((await refusal(write)).issues.map(({ index, path }) => [index, path])).toEqual([
          [1, "id"],
          [1, "toolCalls.1.id"],
          [3, "toolCallId"],
        ]);
      }
      expect(await store.getMessages(session)).toEqual([]);
    });

    it("stores the turn of a model whose tool call id has a lone surrogate, under a new id", async () => {
      const store = makeStore!();
      const sessionId = `agent-${counter++}`;
      const model = new MockLanguageModel({
        responses: [{ toolCalls: [{ id: "call\ud800", name: "echo", arguments: {} }] }, { text: "done" }],
      });
      const agent = new Agent({
        model,
        memoryStore: store,
        sessionId,
        tools: { echo: tool({ description: "Echo", parameters: z.object({}), execute: () => "ok" }) },
      });
      expect((await agent.run("go")).text).toBe("done");
      const stored = await store.getMessages(sessionId);
      const assistant = stored.find((message) => message.role === "assistant" && message.toolCalls);
      const callId = assistant?.role === "assistant" ? assistant.toolCalls![0]!.id : undefined;
      expect(callId).toMatch(/^[\w-]+$/);
      expect(stored.find((message) => message.role === "tool")).toMatchObject({ toolCallId: callId, content: "ok" });
    });
  });
}
