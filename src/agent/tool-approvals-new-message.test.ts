import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { ToolApprovalPendingError } from "../errors/tool-approval-pending-error";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { callMail, mailTool, withoutMeta } from "./__fixtures__/run-fixtures";
import { Agent } from "./agent";
import type { AgentEventMap } from "./agent-events";
import { NEW_MESSAGE_DENIAL } from "./tool-approvals";

/** A new user message while calls await approval: `pendingApprovals` (docs/approvals.md). */

describe("a new message while tool calls await approval", () => {
  it("denies the waiting calls by default, with the reason stated, and the turn goes on; a reload keeps both", async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [callMail("c1", "a@b.c")] }, { text: "It is noon." }],
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    const events: AgentEventMap["tool:result"][] = [];
    agent.on("tool:result", (event) => events.push(event));
    const { toolApprovals } = await agent.run("Mail a@b.c");
    const result = await agent.run("Never mind, what time is it?");
    expect(result.text).toBe("It is noon.");
    expect(result.finishReason).toBe("stop");
    expect(sent).toEqual([]);
    expect(result.toolResults).toEqual([
      { toolCallId: "c1", toolName: "send_mail", result: `Error: ${NEW_MESSAGE_DENIAL}`, isError: true, denied: true },
    ]);
    expect(events).toEqual([expect.objectContaining({ toolCallId: "c1", denied: true })]);
    const sentToModel = model.calls[1]!.messages;
    expect(isToolPairingValid(sentToModel)).toBe(true);
    const call = { ...callMail("c1", "a@b.c"), approval: { id: toolApprovals[0]!.approvalId } };
    const denial = {
      role: "tool",
      toolCallId: "c1",
      name: "send_mail",
      content: `Error: ${NEW_MESSAGE_DENIAL}`,
      approval: { approved: false, reason: NEW_MESSAGE_DENIAL },
    };
    expect(withoutMeta(sentToModel)).toEqual([
      { role: "user", content: "Mail a@b.c" },
      { role: "assistant", content: "", toolCalls: [call] },
      denial,
      { role: "user", content: "Never mind, what time is it?" },
    ]);
    // What a reload reads: the denial and the new message, once each.
    expect(withoutMeta(await store.getMessages("s"))).toEqual([
      { role: "user", content: "Mail a@b.c" },
      { role: "assistant", content: "", toolCalls: [call] },
      denial,
      { role: "user", content: "Never mind, what time is it?" },
      { role: "assistant", content: "It is noon." },
    ]);
  });

  it("applies the answers the new message carries and denies only the calls it leaves waiting", async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [callMail("c1", "a@b.c"), callMail("c2", "d@e.f")] }, { text: "Sent one." }],
    });
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", tools: { send_mail: sendMail } });
    await agent.run("Mail both");
    const result = await agent.run({ input: "Only the first", approvals: [{ toolCallId: "c1", approved: true }] });
    expect(result.text).toBe("Sent one.");
    expect(sent).toEqual(["a@b.c"]);
    const tools = model.calls[1]!.messages.filter((message) => message.role === "tool");
    expect(tools.map((message) => [message.toolCallId, message.content])).toEqual([
      ["c1", '{"sent":true}'],
      ["c2", `Error: ${NEW_MESSAGE_DENIAL}`],
    ]);
    expect(isToolPairingValid(model.calls[1]!.messages)).toBe(true);
  });

  it('"reject": a new message that answers one of two waiting calls is refused, naming the other; nothing stored or run', async () => {
    const { sent, sendMail } = mailTool();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [callMail("c1", "a@b.c"), callMail("c2", "d@e.f")] }, { text: "never" }],
    });
    const agent = new Agent({
      model,
      memoryStore: store,
      sessionId: "s",
      tools: { send_mail: sendMail },
      pendingApprovals: "reject",
    });
    await agent.run("Mail both");
    const before = await store.getMessages("s");
    await expect(
      agent.run({ input: "Only the first", approvals: [{ toolCallId: "c1", approved: true }] }),
    ).rejects.toSatisfy(
      (error: unknown) => ToolApprovalPendingError.isInstance(error) && error.toolCallIds.join() === "c2",
    );
    expect(await store.getMessages("s")).toEqual(before);
    expect(sent).toEqual([]);
    expect(model.calls).toHaveLength(1);
  });

  it("refuses a pendingApprovals value it does not know", () => {
    expect(
      () => new Agent({ model: new MockLanguageModel({ responses: [] }), pendingApprovals: "ask" as never }),
    ).toThrowError(expect.objectContaining({ argument: "pendingApprovals" }));
    expect(() => new Agent({ model: new MockLanguageModel({ responses: [] }), pendingApprovals: 1 as never })).toThrow(
      InvalidArgumentError,
    );
  });
});
