import {
  readUIMessageStream,
  stepCountIs,
  streamText as aiStreamText,
  tool as aiTool,
  type UIMessage as AiUIMessage,
  type UIMessageChunk as AiUIMessageChunk,
} from "ai";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { ToolApprovalNotPendingError } from "../errors/tool-approval-not-pending-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { convertToModelMessages } from "../ui/convert-to-model-messages";
import { convertToUIMessages } from "../ui/convert-to-ui-messages";
import { streamText } from "./stream-text";

// The useChat flow of AI SDK 6 against a store-backed route: the answer streams a
// `tool-approval-request`, `addToolApprovalResponse` turns the part into `approval-responded`,
// and the next request continues the stored turn. Parsed with the AI SDK's own readUIMessageStream.

type ToolUIPart = Extract<AiUIMessage["parts"][number], { toolCallId: string }>;

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};

async function fold(body: ReadableStream<Uint8Array> | null, message?: AiUIMessage): Promise<AiUIMessage> {
  const text = await new Response(body).text();
  const chunks = text
    .split("\n\n")
    .filter((event) => event.startsWith("data: ") && event !== "data: [DONE]")
    .map((event) => JSON.parse(event.slice("data: ".length)) as AiUIMessageChunk);
  let last: AiUIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream: convertArrayToReadableStream(chunks),
    terminateOnError: true,
    ...(message ? { message: structuredClone(message) } : {}),
  }))
    last = snapshot;
  return last!;
}

/** What `useChat`'s `addToolApprovalResponse({ id, approved, reason })` does to the message. */
function answer(message: AiUIMessage, approved: boolean, reason?: string): AiUIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts as ToolUIPart[]) {
    if (part.state !== "approval-requested") continue;
    Object.assign(part, {
      state: "approval-responded",
      approval: { id: part.approval.id, approved, ...(reason === undefined ? {} : { reason }) },
    });
  }
  return copy;
}

function setup() {
  const sent: string[] = [];
  const tools = {
    send_mail: tool({
      description: "Send an e-mail",
      parameters: z.object({ to: z.string() }),
      needsApproval: true,
      execute: async ({ to }: { to: string }) => {
        sent.push(to);
        return { sent: true };
      },
    }),
  };
  const model = new MockLanguageModel({
    responses: [
      { text: "Asking first.", toolCalls: [{ id: "c1", name: "send_mail", arguments: { to: "a@b.c" } }] },
      { text: "Done." },
    ],
  });
  const store = new InMemoryStore();
  const route = (messages: AiUIMessage[]) =>
    streamText({ model, tools, memoryStore: store, sessionId: "user-1", messages: convertToModelMessages(messages) });
  return { sent, model, store, route };
}

const user: AiUIMessage = { id: "u1", role: "user", parts: [{ type: "text", text: "Mail a@b.c" }] };

describe("tool approvals through streamText and useChat", () => {
  it("asks, then an approval-responded request runs the call once and continues the same message", async () => {
    const { sent, model, store, route } = setup();
    const asked = await fold(route([user]).toUIMessageStreamResponse().body);
    const requested = asked.parts.find((part) => part.type === "tool-send_mail") as ToolUIPart;
    expect(requested).toMatchObject({
      state: "approval-requested",
      toolCallId: "c1",
      approval: { id: expect.any(String) },
    });
    const stored = await store.getMessages("user-1");
    expect(stored[1]).toMatchObject({
      role: "assistant",
      toolCalls: [
        { id: "c1", name: "send_mail", arguments: { to: "a@b.c" }, approval: { id: requested.approval!.id } },
      ],
    });
    // A reload shows the pending call from the store as useChat kept it.
    expect(convertToUIMessages(stored).at(-1)!.parts.at(-1)).toMatchObject({
      type: "tool-send_mail",
      state: "approval-requested",
      approval: { id: requested.approval!.id },
    });

    const approved = answer(asked, true);
    const continued = await fold(route([user, approved]).toUIMessageStreamResponse().body, approved);
    expect(sent).toEqual(["a@b.c"]);
    expect(continued.id).toBe(asked.id);
    expect(continued.parts.find((part) => part.type === "tool-send_mail")).toMatchObject({
      state: "output-available",
      output: { sent: true },
    });
    expect(continued.parts.at(-1)).toMatchObject({ type: "text", text: "Done." });
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "c1", content: '{"sent":true}' });

    // The same answer sent again (a replay, a second tab) runs nothing: the call is no longer pending.
    const replay = route([user, approved]);
    await expect(replay.response).rejects.toSatisfy(ToolApprovalNotPendingError.isInstance);
    const refused = await new Response(replay.toUIMessageStreamResponse().body).text();
    expect(refused).toContain('"type":"error"');
    expect(sent).toEqual(["a@b.c"]);
    expect(model.calls).toHaveLength(2);
  });

  it("a denial from useChat reaches the model with the user's reason and shows as output-denied", async () => {
    const { sent, model, store, route } = setup();
    const asked = await fold(route([user]).toUIMessageStreamResponse().body);
    const denied = answer(asked, false, "Not to that address");
    const continued = await fold(route([user, denied]).toUIMessageStreamResponse().body, denied);
    expect(sent).toEqual([]);
    expect(continued.parts.find((part) => part.type === "tool-send_mail")).toMatchObject({ state: "output-denied" });
    expect(model.calls[1]!.messages.at(-1)).toMatchObject({ role: "tool", content: "Error: Not to that address" });
    // Reloaded from the store: the denial and its reason, terminal.
    expect(convertToUIMessages(await store.getMessages("user-1")).at(-1)!.parts).toContainEqual(
      expect.objectContaining({
        state: "output-denied",
        approval: { id: expect.any(String), approved: false, reason: "Not to that address" },
      }),
    );
  });

  it("a message typed while the call awaits approval denies it and is answered; a reload shows both", async () => {
    const { sent, model, store, route } = setup();
    const asked = await fold(route([user]).toUIMessageStreamResponse().body);
    const next: AiUIMessage = { id: "u2", role: "user", parts: [{ type: "text", text: "Forget it" }] };
    // Folded by the AI SDK's own reader, which fails on a chunk naming a call the message lacks.
    const answered = await fold(route([user, asked, next]).toUIMessageStreamResponse().body);
    expect(answered.parts.at(-1)).toMatchObject({ type: "text", text: "Done." });
    expect(sent).toEqual([]);
    expect(model.calls[1]!.messages.slice(-2)).toMatchObject([
      { role: "tool", toolCallId: "c1", content: expect.stringContaining("the user sent a new message") },
      { role: "user", content: "Forget it" },
    ]);
    const reloaded = convertToUIMessages(await store.getMessages("user-1"));
    expect(reloaded.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(reloaded[1]!.parts).toContainEqual(
      expect.objectContaining({ type: "tool-send_mail", state: "output-denied" }),
    );
    expect(reloaded[2]).toMatchObject({ id: "u2", parts: [{ type: "text", text: "Forget it" }] });
  });

  it("refuses approvals on a stateless request (no store holds the pending call)", () => {
    const pending: AiUIMessage = {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "c1",
          state: "approval-responded",
          input: { to: "a@b.c" },
          approval: { id: "ap1", approved: true },
        },
      ],
    };
    const error = (() => {
      try {
        streamText({
          model: new MockLanguageModel({ responses: [] }),
          messages: convertToModelMessages([user, pending]),
        });
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe("sessionId");
  });

  it("streams the approval request as the AI SDK's own streamText does", async () => {
    const script = () =>
      new MockLanguageModelV3({
        doStream: {
          stream: convertArrayToReadableStream([
            { type: "stream-start", warnings: [] },
            { type: "tool-call", toolCallId: "c1", toolName: "send_mail", input: '{"to":"a@b.c"}' },
            { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
          ]),
        },
      });
    const execute = async () => ({ sent: true });
    const theirs = aiStreamText({
      model: script(),
      prompt: "Mail a@b.c",
      tools: { send_mail: aiTool({ inputSchema: z.object({ to: z.string() }), needsApproval: true, execute }) },
      stopWhen: stepCountIs(3),
    });
    const ours = streamText({
      model: script(),
      memoryStore: new InMemoryStore(),
      sessionId: "s",
      messages: [{ role: "user", content: "Mail a@b.c" }],
      tools: { send_mail: tool({ parameters: z.object({ to: z.string() }), needsApproval: true, execute }) },
    });
    const normal = (message: AiUIMessage) =>
      (JSON.parse(JSON.stringify(message.parts)) as ToolUIPart[]).map((part) =>
        part.approval ? { ...part, approval: { ...part.approval, id: "<id>" } } : part,
      );
    let expected: AiUIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: theirs.toUIMessageStream() })) expected = snapshot;
    const actual = await fold(ours.toUIMessageStreamResponse().body);
    expect(normal(actual)).toStrictEqual(normal(expected!));
    expect(normal(actual)).toContainEqual(expect.objectContaining({ state: "approval-requested" }));
  });
});
