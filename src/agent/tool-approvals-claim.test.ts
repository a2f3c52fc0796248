import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentMessage } from "../messages/agent-message";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import { OUTCOME_UNKNOWN_CONTENT } from "./tool-approvals";

// Issue 46.11: an approved call is claimed in the store before its tool runs (its tool message
// marked outcomeUnknown), and the claim is replaced by the result. Across processes and stores:
// test/approval-claim-stores.test.ts.

const toolMessages = (messages: readonly AgentMessage[]) =>
  messages.flatMap((message) =>
    message.role === "tool"
      ? [{ toolCallId: message.toolCallId, content: message.content, outcomeUnknown: message.outcomeUnknown }]
      : [],
  );

/** Session "s" on `store`, its call "call_1" awaiting approval; `execute` is what `send_mail` does. */
async function waiting(store: MemoryStore, execute: () => Promise<unknown>, responses = [{ text: "Sent." }]) {
  const tools = {
    send_mail: tool({ parameters: z.object({ to: z.string() }), needsApproval: true, execute }),
  };
  const asking = new Agent({
    model: new MockLanguageModel({
      responses: [{ text: "", toolCalls: [{ id: "call_1", name: "send_mail", arguments: { to: "a@b.c" } }] }],
    }),
    memoryStore: store,
    sessionId: "s",
    tools,
  });
  expect((await asking.run("Mail a@b.c")).finishReason).toBe("tool-approval");
  const model = new MockLanguageModel({ responses });
  return { agent: new Agent({ model, memoryStore: store, sessionId: "s", tools }), model };
}

describe("an approved call's claim", () => {
  it("is stored before the tool runs, then replaced by the result: one tool message per call", async () => {
    const store = new InMemoryStore();
    const seenByTool: unknown[] = [];
    const { agent, model } = await waiting(store, async () => {
      seenByTool.push(...toolMessages(await store.getMessages("s")));
      return { sent: true };
    });
    const written: AgentMessage[][] = [];
    agent.on("memory:write", (event) => written.push(event.messages));
    await agent.run({ sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] });

    expect(seenByTool).toEqual([{ toolCallId: "call_1", content: OUTCOME_UNKNOWN_CONTENT, outcomeUnknown: true }]);
    const stored = await store.getMessages("s");
    expect(toolMessages(stored)).toEqual([
      { toolCallId: "call_1", content: JSON.stringify({ sent: true }), outcomeUnknown: undefined },
    ]);
    expect(isToolPairingValid(model.calls[0]!.messages)).toBe(true);
    // The claim is never told as written: only what replaced it.
    expect(written.flat().some((message) => message.role === "tool" && message.outcomeUnknown)).toBe(false);
  });

  it("a failed replace of the claim is retried by the failing run's last write, never stored beside it", async () => {
    const store = sixMethodStore();
    let failures = 1;
    // A store with deleteMessagesFrom whose first call fails (a network blip), as the claim's replace starts.
    const flaky: MemoryStore = {
      ...store,
      getMessages: (sessionId) => store.getMessages(sessionId),
      setMessages: (sessionId, messages) => store.setMessages(sessionId, messages),
      async deleteMessagesFrom(sessionId, messageId) {
        if (failures-- > 0) throw new Error("connection reset");
        const messages = await store.getMessages(sessionId);
        await store.setMessages(
          sessionId,
          messages.slice(
            0,
            messages.findIndex((message) => message.id === messageId),
          ),
        );
      },
    };
    const runs: string[] = [];
    const { agent, model } = await waiting(flaky, async () => {
      runs.push("run");
      return { sent: true };
    });
    const error = await agent.run({ sessionId: "s", approvals: [{ toolCallId: "call_1", approved: true }] }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect((error as Error | undefined)?.message).toMatch(/connection reset|Could not delete/);
    expect(runs).toEqual(["run"]);
    expect(model.calls).toHaveLength(0);
    expect(toolMessages(await store.getMessages("s"))).toEqual([
      { toolCallId: "call_1", content: JSON.stringify({ sent: true }), outcomeUnknown: undefined },
    ]);
  });
});
