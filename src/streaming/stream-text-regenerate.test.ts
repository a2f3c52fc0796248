// streamText's regenerate and edit, driven by the AI SDK's own chat transport: the request bodies
// are exactly those `useChat` sends (`trigger`, `messageId`), posted to a route handler.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { convertToModelMessages } from "../ui/convert-to-model-messages";
import { convertToUIMessages } from "../ui/convert-to-ui-messages";
import { streamText } from "./stream-text";

const directory = mkdtempSync(join(tmpdir(), "agentcore-route-regenerate-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** The README's route: the session from the server's own knowledge, trigger and messageId from the body. */
function chatRoute(store: MemoryStore, model: MockLanguageModel) {
  return async (request: Request): Promise<Response> => {
    const body = (await request.json()) as {
      messages: UIMessage[];
      trigger?: "submit-message" | "regenerate-message";
      messageId?: string;
    };
    const result = streamText({
      model,
      messages: convertToModelMessages(body.messages),
      sessionId: "user-42",
      memoryStore: store,
      ...(body.trigger === undefined ? {} : { trigger: body.trigger }),
      ...(body.messageId === undefined ? {} : { messageId: body.messageId }),
    });
    return result.toUIMessageStreamResponse();
  };
}

/** `useChat`'s transport, posting to the route in process. */
function transport(route: (request: Request) => Promise<Response>) {
  return new DefaultChatTransport<UIMessage>({
    api: "http://localhost/api/chat",
    fetch: async (input, init) => route(new Request(input as string, init as RequestInit)),
  });
}

/** Sends a request the way useChat does and reads the streamed answer to its end. */
async function send(
  chat: DefaultChatTransport<UIMessage>,
  messages: UIMessage[],
  trigger: "submit-message" | "regenerate-message",
  messageId?: string,
): Promise<UIMessage> {
  const stream = await chat.sendMessages({
    chatId: "chat-1",
    messages,
    trigger,
    messageId,
    abortSignal: undefined,
  });
  let last: UIMessage | undefined;
  for await (const message of readUIMessageStream({ stream })) last = message;
  return last!;
}

const user = (id: string, text: string): UIMessage => ({ id, role: "user", parts: [{ type: "text", text }] });
const textOf = (message: UIMessage) =>
  message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
const shape = (messages: AgentMessage[]) => messages.map((message) => `${message.role}: ${String(message.content)}`);

describe.each([
  ["InMemoryStore", () => new InMemoryStore()],
  ["FileMemoryStore", () => new FileMemoryStore(join(directory, `${Math.random().toString(36).slice(2)}.json`))],
] as const)("streamText with useChat's regenerate and edit requests on %s", (_name, factory) => {
  it("regenerate-message replaces the stored answer: the model sees the turn without it, the store holds the new one only", async () => {
    const store = factory();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const chat = transport(chatRoute(store, model));
    const question = user("client-1", "What is agentcore?");
    const answer = await send(chat, [question], "submit-message");
    expect(textOf(answer)).toBe("answer 0");
    // useChat's regenerate(): the messages cut before the answer, its id as messageId (an id the browser got from the stream).
    const again = await send(chat, [question], "regenerate-message", answer.id);
    expect(textOf(again)).toBe("answer 1");
    expect(model.calls[1]!.messages.map((message) => `${message.role}: ${String(message.content)}`)).toEqual([
      "user: What is agentcore?",
    ]);
    expect(shape(await store.getMessages("user-42"))).toEqual(["user: What is agentcore?", "assistant: answer 1"]);
    // regenerate() without a messageId: the last answer too.
    await send(chat, [question], "regenerate-message");
    expect(shape(await store.getMessages("user-42"))).toEqual(["user: What is agentcore?", "assistant: answer 2"]);
  });

  it("after a reload (ids from the store), regenerating an earlier answer answers its question again and drops the turns after it", async () => {
    const store = factory();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const chat = transport(chatRoute(store, model));
    await send(chat, [user("c1", "first")], "submit-message");
    await send(chat, [user("c2", "second")], "submit-message");
    const reloaded = convertToUIMessages(await store.getMessages("user-42")) as UIMessage[];
    expect(reloaded.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    await send(chat, reloaded.slice(0, 1), "regenerate-message", reloaded[1]!.id);
    expect(shape(await store.getMessages("user-42"))).toEqual(["user: first", "assistant: answer 2"]);
    expect(model.calls[2]!.messages.map((message) => String(message.content))).toEqual(["first"]);
  });

  it("submit-message with a stored user message's id edits it: it and what follows give way to the new text", async () => {
    const store = factory();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const chat = transport(chatRoute(store, model));
    await send(chat, [user("c1", "first")], "submit-message");
    await send(chat, [user("c2", "second")], "submit-message");
    const reloaded = convertToUIMessages(await store.getMessages("user-42")) as UIMessage[];
    // useChat's sendMessage({ text, messageId }): the history cut after that message, which carries the new text.
    await send(chat, [user(reloaded[0]!.id, "first, edited")], "submit-message", reloaded[0]!.id);
    expect(shape(await store.getMessages("user-42"))).toEqual(["user: first, edited", "assistant: answer 2"]);
  });
});

describe("streamText's trigger and messageId are validated (they come from the request body)", () => {
  it("refuses an unknown trigger and a malformed messageId with an InvalidArgumentError", () => {
    const base = {
      model: new MockLanguageModel({ responses: [] }),
      messages: [{ role: "user" as const, content: "hi" }],
    };
    for (const [options, argument] of [
      [{ trigger: "resume-stream" }, "trigger"],
      [{ trigger: 42 }, "trigger"],
      [{ messageId: "" }, "messageId"],
      [{ messageId: "bad\u0000id" }, "messageId"],
      [{ messageId: { $ne: 1 } }, "messageId"],
    ] as const) {
      expect(() => streamText({ ...base, ...(options as object) })).toThrow(
        expect.objectContaining({ name: "InvalidArgumentError", argument }),
      );
    }
  });

  it("a regenerate on an empty stored session ends the stream with an error and stores nothing", async () => {
    const store = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [] });
    const result = streamText({
      model,
      messages: [],
      sessionId: "empty",
      memoryStore: store,
      trigger: "regenerate-message",
    });
    await expect(result.response).rejects.toMatchObject({ name: "NothingToRegenerateError", reason: "empty" });
    expect(await store.getMessages("empty")).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });
});
