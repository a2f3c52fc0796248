// A useChat payload holding a call that awaits the user's approval (`approval-requested`): kept by
// convertToModelMessages, as the `ai` package keeps it, and never sent to a model without its result.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import { ToolApprovalPendingError } from "../errors/tool-approval-pending-error";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import { streamText } from "../streaming/stream-text";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { corpus } from "./__fixtures__/use-chat-corpus";
import { convertToModelMessages } from "./convert-to-model-messages";

function mailTool() {
  const sent: string[] = [];
  const sendMail = tool({
    description: "Send an e-mail",
    parameters: z.object({ to: z.string() }),
    needsApproval: true,
    execute: async ({ to }: { to: string }) => {
      sent.push(to);
      return { sent: true };
    },
  });
  return { sent, sendMail };
}

describe("convertToModelMessages and calls awaiting approval", () => {
  it("keeps the call with its approval and no result: a stateless app that stores the payload can still answer it", async () => {
    const converted = convertToModelMessages(corpus["a call awaiting approval alone in its assistant message"]);
    expect(converted[1]).toStrictEqual({
      id: "a1",
      role: "assistant",
      content: "",
      toolCalls: [{ id: "m1", name: "send_mail", arguments: { to: "x@y.z" }, approval: { id: "ap1" } }],
    });
    const store = new InMemoryStore();
    await store.setMessages("s", converted);
    const { sent, sendMail } = mailTool();
    const model = new MockLanguageModel({ responses: [{ text: "Sent." }] });
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "s",
      tools: { send_mail: sendMail },
      pendingApprovals: "reject",
    });

    await expect(agent.run("Something else")).rejects.toThrow(ToolApprovalPendingError);
    expect(model.calls).toHaveLength(0);
    const result = await agent.run({ approvals: [{ toolCallId: "m1", approved: true, approvalId: "ap1" }] });
    expect(sent).toEqual(["x@y.z"]);
    expect(result.text).toBe("Sent.");
    const request = model.calls[0]!.messages;
    expect(findToolPairingIssues(request)).toEqual([]);
    expect(request.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
  });

  it("stateless streamText: a call left awaiting approval reaches the model closed by a tool message, never unpaired", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "It is noon." }] });
    const { sent, sendMail } = mailTool();
    const messages = convertToModelMessages(corpus["a call left awaiting approval, then a new user message"]);
    expect((messages[1] as { toolCalls?: unknown[] }).toolCalls).toHaveLength(1);
    const result = streamText({ model, messages, tools: { send_mail: sendMail } });
    expect(await result.text).toBe("It is noon.");
    const request = model.calls[0]!.messages;
    expect(findToolPairingIssues(request)).toEqual([]);
    expect(request.map((message) => message.role)).toEqual(["user", "assistant", "tool", "user"]);
    expect(request[2]).toMatchObject({ role: "tool", toolCallId: "r1" });
    expect(sent).toEqual([]);
  });
});
