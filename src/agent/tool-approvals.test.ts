import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { ToolApprovalNotPendingError } from "../errors/tool-approval-not-pending-error";
import { ToolApprovalPendingError } from "../errors/tool-approval-pending-error";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { callMail, mailTool, withoutMeta } from "./__fixtures__/run-fixtures";
import { Agent } from "./agent";
import type { AgentStreamPart } from "./agent-result";

describe("tool approval (human in the loop)", () => {
  it("stops at a call that needs approval: stored pending, finishReason tool-approval, the tool not run", async () => {
    const { sent, sendMail } = mailTool();
    const model = new MockLanguageModel({ responses: [{ text: "Sending.", toolCalls: [callMail("c1", "a@b.c")] }] });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    const result = await agent.run("Mail a@b.c");
    expect(result.finishReason).toBe("tool-approval");
    expect(result.toolApprovals).toEqual([
      { approvalId: expect.any(String), toolCallId: "c1", toolName: "send_mail", input: { to: "a@b.c" } },
    ]);
    expect(sent).toEqual([]);
    expect(model.calls).toHaveLength(1);
    const stored = await store.getMessages("s");
    expect(withoutMeta(stored)).toEqual([
      { role: "user", content: "Mail a@b.c" },
      {
        role: "assistant",
        content: "Sending.",
        toolCalls: [{ ...callMail("c1", "a@b.c"), approval: { id: result.toolApprovals[0]!.approvalId } }],
      },
    ]);
  });

  it("an approval on a new Agent (a restart) runs the call once and sends the model the exact continuation", async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const first = new Agent({
      model: new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "a@b.c")] }] }),
      memoryStore: store,
      sessionId: "s",
      tools: { send_mail: sendMail },
    });
    const { toolApprovals } = await first.run("Mail a@b.c");
    const model = new MockLanguageModel({ responses: [{ text: "Sent." }] });
    const second = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    const result = await second.run({ approvals: [{ toolCallId: "c1", approved: true }] });
    expect(sent).toEqual(["a@b.c"]);
    expect(result.text).toBe("Sent.");
    expect(result.finishReason).toBe("stop");
    expect(result.toolResults).toEqual([
      { toolCallId: "c1", toolName: "send_mail", result: { sent: true }, isError: false },
    ]);
    expect(result.toolApprovals).toEqual([]);
    const call = { ...callMail("c1", "a@b.c"), approval: { id: toolApprovals[0]!.approvalId } };
    expect(withoutMeta(model.calls[0]!.messages)).toEqual([
      { role: "user", content: "Mail a@b.c" },
      { role: "assistant", content: "", toolCalls: [call] },
      { role: "tool", toolCallId: "c1", name: "send_mail", content: '{"sent":true}', approval: { approved: true } },
    ]);
    // The run's messages are what it added: the tool result and the answer.
    expect(withoutMeta(result.messages).map((message) => message.role)).toEqual(["tool", "assistant"]);
    const stored = await store.getMessages("s");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(isToolPairingValid(stored)).toBe(true);
  });

  it("a denial gives the model the user's reason, the tool never runs, and the denial is terminal", async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [callMail("c1", "boss@corp.com")] }, { text: "Understood, not sent." }],
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    await agent.run("Mail my boss");
    const result = await agent.run({
      approvals: [{ toolCallId: "c1", approved: false, reason: "Never write to my boss" }],
    });
    expect(sent).toEqual([]);
    expect(result.text).toBe("Understood, not sent.");
    expect(result.toolResults).toEqual([
      {
        toolCallId: "c1",
        toolName: "send_mail",
        result: "Error: Never write to my boss",
        isError: true,
        denied: true,
      },
    ]);
    expect(withoutMeta(model.calls[1]!.messages).at(-1)).toEqual({
      role: "tool",
      toolCallId: "c1",
      name: "send_mail",
      content: "Error: Never write to my boss",
      approval: { approved: false, reason: "Never write to my boss" },
    });
    await expect(agent.run({ approvals: [{ toolCallId: "c1", approved: true }] })).rejects.toSatisfy(
      (error: unknown) => ToolApprovalNotPendingError.isInstance(error) && error.toolCallId === "c1",
    );
    expect(sent).toEqual([]);
  });

  it("without a reason a denial says only that it was denied (no made-up reason)", async () => {
    const { sendMail } = mailTool();
    const model = new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "x@y.z")] }, { text: "ok" }] });
    const agent = new Agent({ model, sessionId: "s", tools: { send_mail: sendMail } });
    await agent.run("Mail x");
    await agent.run({ approvals: [{ toolCallId: "c1", approved: false }] });
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ content: "Error: Tool call execution denied." });
  });

  it("refuses a replay, an unknown call, a wrong approval id and answers with nothing pending: typed errors, nothing run", async () => {
    const { sent, sendMail } = mailTool();
    const model = new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "a@b.c")] }, { text: "Sent." }] });
    const agent = new Agent({ model, sessionId: "s", tools: { send_mail: sendMail } });
    await expect(agent.run({ approvals: [{ toolCallId: "c1", approved: true }] })).rejects.toSatisfy(
      ToolApprovalNotPendingError.isInstance,
    );
    const { toolApprovals } = await agent.run("Mail a@b.c");
    await expect(agent.run({ approvals: [{ toolCallId: "forged", approved: true }] })).rejects.toSatisfy(
      (error: unknown) => ToolApprovalNotPendingError.isInstance(error) && error.toolCallId === "forged",
    );
    await expect(
      agent.run({ approvals: [{ toolCallId: "c1", approved: true, approvalId: "not-the-one" }] }),
    ).rejects.toSatisfy(
      (error: unknown) => ToolApprovalNotPendingError.isInstance(error) && error.approvalId === "not-the-one",
    );
    expect(sent).toEqual([]);
    await agent.run({ approvals: [{ toolCallId: "c1", approved: true, approvalId: toolApprovals[0]!.approvalId }] });
    await expect(agent.run({ approvals: [{ toolCallId: "c1", approved: true }] })).rejects.toSatisfy(
      ToolApprovalNotPendingError.isInstance,
    );
    expect(sent).toEqual(["a@b.c"]);
    expect(model.calls).toHaveLength(2);
  });

  it('pendingApprovals: "reject" refuses a new message while calls await approval, unless it answers them', async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "a@b.c")] }, { text: "Done." }] });
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "s",
      tools: { send_mail: sendMail },
      pendingApprovals: "reject",
    });
    await agent.run("Mail a@b.c");
    await expect(agent.run("Actually, what time is it?")).rejects.toSatisfy(
      (error: unknown) => ToolApprovalPendingError.isInstance(error) && error.toolCallIds.join() === "c1",
    );
    expect(await store.getMessages("s")).toHaveLength(2);
    const result = await agent.run({
      input: "Go ahead, then tell me the time",
      approvals: [{ toolCallId: "c1", approved: true }],
    });
    expect(result.text).toBe("Done.");
    expect(withoutMeta(model.calls[1]!.messages).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "user",
    ]);
    expect(sent).toEqual(["a@b.c"]);
  });

  it("runs the calls that need no approval at once and waits only for the others; a partial answer waits again", async () => {
    const { sent, sendMail } = mailTool(({ to }: { to: string }) => !to.endsWith("@me.com"));
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [callMail("c1", "self@me.com"), callMail("c2", "a@b.c"), callMail("c3", "d@e.f")] },
        { text: "All done." },
      ],
    });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    const first = await agent.run("Send the three mails");
    expect(sent).toEqual(["self@me.com"]);
    expect(first.toolApprovals.map((request) => request.toolCallId)).toEqual(["c2", "c3"]);
    const partial = await agent.run({ approvals: [{ toolCallId: "c3", approved: false, reason: "no" }] });
    expect(partial.finishReason).toBe("tool-approval");
    expect(partial.toolApprovals.map((request) => request.toolCallId)).toEqual(["c2"]);
    expect(model.calls).toHaveLength(1);
    const done = await agent.run({ approvals: [{ toolCallId: "c2", approved: true }] });
    expect(done.text).toBe("All done.");
    expect(sent).toEqual(["self@me.com", "a@b.c"]);
    const sentToModel = model.calls[1]!.messages;
    expect(isToolPairingValid(sentToModel)).toBe(true);
    expect(sentToModel.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      '{"sent":true}',
      "Error: no",
      '{"sent":true}',
    ]);
  });

  it("never sends a pending call: a strategy window and the next model call see only answered steps", async () => {
    const { sendMail } = mailTool();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [callMail("c1", "a@b.c")] }, { text: "Sent." }, { text: "Hello again." }],
    });
    const agent = new Agent({
      model,
      memory: "sliding_window",
      maxMessages: 2,
      sessionId: "s",
      tools: { send_mail: sendMail },
    });
    await agent.run("Mail a@b.c");
    await agent.run({ approvals: [{ toolCallId: "c1", approved: true }] });
    await agent.run("Hi");
    for (const call of model.calls) expect(isToolPairingValid(call.messages)).toBe(true);
  });

  it("streams a tool-approval-request part and a denied tool-result part", async () => {
    const { sendMail } = mailTool();
    const model = new MockLanguageModel({ responses: [{ toolCalls: [callMail("c1", "a@b.c")] }, { text: "ok" }] });
    const agent = new Agent({ model, sessionId: "s", tools: { send_mail: sendMail } });
    const parts: AgentStreamPart[] = [];
    for await (const part of agent.stream("Mail").fullStream) parts.push(part);
    const request = parts.find((part) => part.type === "tool-approval-request");
    expect(request).toEqual({
      type: "tool-approval-request",
      approval: { approvalId: expect.any(String), toolCallId: "c1", toolName: "send_mail", input: { to: "a@b.c" } },
    });
    expect(parts.at(-1)).toMatchObject({ type: "finish", finishReason: "tool-approval" });
    const next: AgentStreamPart[] = [];
    for await (const part of agent.stream({ approvals: [{ toolCallId: "c1", approved: false, reason: "no" }] })
      .fullStream)
      next.push(part);
    expect(next[0]).toEqual({
      type: "tool-result",
      toolCallId: "c1",
      toolName: "send_mail",
      result: "Error: no",
      isError: true,
      denied: true,
    });
  });

  it("validates approvals and needsApproval with typed errors", async () => {
    const agent = new Agent({ model: new MockLanguageModel({ responses: [] }), sessionId: "s" });
    for (const approvals of [
      [{ toolCallId: "c1" }],
      [{ toolCallId: "", approved: true }],
      [{ toolCallId: "c1", approved: true, extra: 1 }],
      [
        { toolCallId: "c1", approved: true },
        { toolCallId: "c1", approved: false },
      ],
      "yes",
    ])
      await expect(agent.run({ approvals } as never)).rejects.toSatisfy(InvalidArgumentError.isInstance);
    expect(() => tool({ parameters: z.object({}), execute: () => 1, needsApproval: "always" as never })).toThrowError(
      expect.objectContaining({ argument: "needsApproval" }),
    );
  });
});
