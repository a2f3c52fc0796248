// streamText's regenerate and edit, driven by the AI SDK's own chat transport: the request bodies
// are exactly those `useChat` sends (`trigger`, `messageId`), posted to a route handler.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { UIMessage } from "ai";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { convertToUIMessages } from "../ui/convert-to-ui-messages";
import { chatRoute, send, transport } from "../../test/helpers/use-chat";
import { streamText } from "./stream-text";

const directory = mkdtempSync(join(tmpdir(), "agentcore-route-regenerate-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

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
    expect(shape(model.calls[2]!.messages)).toEqual(["user: first, edited"]);
  });

  it("an edit of a later message sends exactly the turns before it, then the new text (never the old text)", async () => {
    const store = factory();
    const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index}` }) });
    const chat = transport(chatRoute(store, model));
    await send(chat, [user("c1", "first")], "submit-message");
    await send(chat, [user("c2", "second")], "submit-message");
    await send(chat, [user("c3", "third")], "submit-message");
    const reloaded = convertToUIMessages(await store.getMessages("user-42")) as UIMessage[];
    const edited = user(reloaded[2]!.id, "second, edited");
    await send(chat, [...reloaded.slice(0, 2), edited], "submit-message", edited.id);
    expect(shape(model.calls[3]!.messages)).toEqual(["user: first", "assistant: answer 0", "user: second, edited"]);
    expect(shape(await store.getMessages("user-42"))).toEqual([
      "user: first",
      "assistant: answer 0",
      "user: second, edited",
      "assistant: answer 3",
    ]);
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
