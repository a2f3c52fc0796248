import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolApprovalNotPendingError } from "../errors/tool-approval-not-pending-error";
import type { AgentMessage } from "../messages/agent-message";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";

// Issue 46.17: that a denial is final, and that only a call still pending can be answered, each
// caught by a second test independent of tool-approvals.test.ts: here the step still waits for
// another call (nothing after the answered one hides it), and the answers come after a restart.

const withoutMeta = (messages: readonly AgentMessage[]) =>
  messages.map(({ id: _id, timestamp: _timestamp, ...rest }) => rest);
const callMail = (id: string, to: string) => ({ id, name: "send_mail", arguments: { to } });

/** Two calls needing approval in one step, on `store`; the mail tool counts what it sent. */
async function twoWaiting() {
  const sent: string[] = [];
  const tools = {
    send_mail: tool({
      description: "Send an e-mail",
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: async ({ to }: { to: string }) => {
        sent.push(to);
        return { sent: to };
      },
    }),
  };
  const store = new InMemoryStore();
  const first = new Agent({
    model: new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "a@x.y"), callMail("c2", "b@x.y")] }] }),
    memoryStore: store,
    sessionId: "s",
    tools,
  });
  const { toolApprovals } = await first.run("Mail a and b");
  expect(toolApprovals.map((request) => request.toolCallId)).toEqual(["c1", "c2"]);
  /** The same session after a restart: a new agent on the store, answering with `text`. */
  const restarted = (text: string) => {
    const model = new MockLanguageModel({ responses: [{ text }] });
    return { model, agent: new Agent({ model, memoryStore: store, sessionId: "s", tools }) };
  };
  return { sent, store, first, restarted, approvalIds: toolApprovals.map((request) => request.approvalId) };
}

describe("tool approval answers, the step still waiting for another call", () => {
  it("a denial is final: approving the denied call later, even with its approval id after a restart, is refused and nothing runs", async () => {
    const { sent, store, first, restarted, approvalIds } = await twoWaiting();
    const partial = await first.run({ approvals: [{ toolCallId: "c1", approved: false, reason: "Not a" }] });
    expect(partial.finishReason).toBe("tool-approval");
    expect(partial.toolApprovals.map((request) => request.toolCallId)).toEqual(["c2"]);
    const before = await store.getMessages("s");

    const { model, agent } = restarted("Sent to b only.");
    for (const approvals of [
      [{ toolCallId: "c1", approved: true, approvalId: approvalIds[0]! }],
      [
        { toolCallId: "c2", approved: true },
        { toolCallId: "c1", approved: true },
      ],
    ]) {
      await expect(agent.run({ approvals })).rejects.toSatisfy(
        (error: unknown) => ToolApprovalNotPendingError.isInstance(error) && error.toolCallId === "c1",
      );
    }
    expect(sent).toEqual([]);
    expect(model.calls).toHaveLength(0);
    expect(await store.getMessages("s")).toEqual(before);

    // The waiting call is still answerable; the model sees the denial and the one result.
    const result = await agent.run({ approvals: [{ toolCallId: "c2", approved: true }] });
    expect(result.text).toBe("Sent to b only.");
    expect(sent).toEqual(["b@x.y"]);
    expect(withoutMeta(model.calls[0]!.messages).slice(-2)).toEqual([
      {
        role: "tool",
        toolCallId: "c1",
        name: "send_mail",
        content: "Error: Not a",
        approval: { approved: false, reason: "Not a" },
      },
      { role: "tool", toolCallId: "c2", name: "send_mail", content: '{"sent":"b@x.y"}', approval: { approved: true } },
    ]);
  });

  it("only a call still pending is answered: a replayed approval or another call's approval id is refused, nothing runs twice", async () => {
    const { sent, store, first, restarted, approvalIds } = await twoWaiting();
    await first.run({ approvals: [{ toolCallId: "c1", approved: true, approvalId: approvalIds[0]! }] });
    expect(sent).toEqual(["a@x.y"]);
    const before = await store.getMessages("s");

    const { model, agent } = restarted("Both sent.");
    // The first approval replayed (a retried request, a second tab), alone or with the waiting call's answer.
    for (const approvals of [
      [{ toolCallId: "c1", approved: true, approvalId: approvalIds[0]! }],
      [
        { toolCallId: "c2", approved: true, approvalId: approvalIds[1]! },
        { toolCallId: "c1", approved: false },
      ],
    ]) {
      await expect(agent.run({ approvals })).rejects.toSatisfy(
        (error: unknown) => ToolApprovalNotPendingError.isInstance(error) && error.toolCallId === "c1",
      );
    }
    // The waiting call answered under the other call's approval id.
    await expect(
      agent.run({ approvals: [{ toolCallId: "c2", approved: true, approvalId: approvalIds[0]! }] }),
    ).rejects.toSatisfy(
      (error: unknown) =>
        ToolApprovalNotPendingError.isInstance(error) &&
        error.toolCallId === "c2" &&
        error.approvalId === approvalIds[0],
    );
    expect(sent).toEqual(["a@x.y"]);
    expect(model.calls).toHaveLength(0);
    expect(await store.getMessages("s")).toEqual(before);

    await agent.run({ approvals: [{ toolCallId: "c2", approved: true, approvalId: approvalIds[1]! }] });
    expect(sent).toEqual(["a@x.y", "b@x.y"]);
    expect(model.calls).toHaveLength(1);
  });
});
