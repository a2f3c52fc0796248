// streamText's `resumable` option and resumeStream, in one process (the stores' shared logs:
// test/resumable-streams-stores.test.ts; a page's chat: test/resumable-streams-chat.test.ts).
import { afterEach, describe, expect, it, vi } from "vitest";
import { ANSWER, foldResponse, responseChunks, startHeldTurn } from "../../test/helpers/resumable-turns";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { sixMethodStore } from "../stores/__fixtures__/six-method-store";
import { backendOf } from "../stores/backend-of";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { resumeStream } from "./resume-stream";
import { streamText } from "./stream-text";

afterEach(() => {
  vi.useRealTimers();
});

describe("streamText({ resumable })", () => {
  it("sends the first chunk only once the user message is stored (a page loaded from then on shows it)", async () => {
    const events: string[] = [];
    class WatchedStore extends InMemoryStore {
      override async appendMessages(sessionId: string, messages: AgentMessage[]): Promise<void> {
        await super.appendMessages(sessionId, messages);
        if (messages.some((message) => message.role === "user")) events.push("user message stored");
      }
    }
    const result = streamText({
      model: new MockLanguageModel({ responses: [{ text: "Hello" }] }),
      messages: [{ id: "u1", role: "user", content: "Hi" }],
      sessionId: "s",
      memoryStore: new WatchedStore(),
      resumable: true,
    });
    for await (const chunk of responseChunks(result.toUIMessageStreamResponse())) events.push(chunk.type);
    expect(events.slice(0, 2)).toEqual(["user message stored", "start"]);
  });

  it("refuses resumable without a memoryStore and a sessionId, and bad bounds, naming the option", () => {
    const model = new MockLanguageModel({ responses: [] });
    const messages: AgentMessage[] = [{ role: "user", content: "Hi" }];
    const attempts = [
      () => streamText({ model, messages, sessionId: "s", resumable: true }),
      () => streamText({ model, messages, memoryStore: new InMemoryStore(), resumable: true }),
      () =>
        streamText({ model, messages, sessionId: "s", memoryStore: new InMemoryStore(), resumable: { maxBytes: 0 } }),
      () =>
        streamText({ model, messages, sessionId: "s", memoryStore: new InMemoryStore(), resumable: { ttlMs: 1.5 } }),
    ];
    for (const attempt of attempts) {
      const error = (() => {
        try {
          attempt();
        } catch (thrown) {
          return thrown;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).argument).toMatch(/^resumable/);
    }
  });

  it("works on a user's store with the six methods (the log kept in this process)", async () => {
    const store = sixMethodStore();
    const held = await startHeldTurn(store, "s");
    expect(backendOf(store).streamLog.scope).toBe("process");
    const resumed = foldResponse(await resumeStream({ sessionId: "s", memoryStore: store }));
    held.open();
    const { message } = await resumed;
    await held.result.response;
    const stored = await store.getMessages("s");
    expect(message?.id).toBe(stored.at(-1)?.id);
    expect(stored.at(-1)?.content).toBe(ANSWER);
  });

  it("refuses another user's session with a SessionOwnershipError, before reading the stream", async () => {
    const { SessionOwnershipError } = await import("../errors/session-ownership-error");
    const store = new InMemoryStore();
    const result = streamText({
      model: new MockLanguageModel({ responses: [{ text: "Hello" }] }),
      messages: [{ role: "user", content: "Hi" }],
      sessionId: "owned",
      userId: "alice",
      memoryStore: store,
      resumable: true,
    });
    for await (const _chunk of responseChunks(result.toUIMessageStreamResponse()));
    await expect(resumeStream({ sessionId: "owned", memoryStore: store, userId: "mallory" })).rejects.toSatisfy(
      (error) => SessionOwnershipError.isInstance(error) && error.userId === "mallory",
    );
    expect((await resumeStream({ sessionId: "owned", memoryStore: store, userId: "alice" })).status).toBe(200);
  });

  it("forgets a stream ttlMs after its end: then 204", async () => {
    const store = new InMemoryStore();
    const held = await startHeldTurn(store, "s", { resumable: { ttlMs: 60_000 } });
    held.open();
    await held.result.response;
    expect((await resumeStream({ sessionId: "s", memoryStore: store })).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 60_001 });
    expect((await resumeStream({ sessionId: "s", memoryStore: store })).status).toBe(204);
  });

  it("stops following when the reconnecting client goes away (its signal), the run going on", async () => {
    const store = new InMemoryStore();
    const held = await startHeldTurn(store, "s");
    const gone = new AbortController();
    const response = await resumeStream({ sessionId: "s", memoryStore: store, signal: gone.signal });
    const chunks: string[] = [];
    for await (const chunk of responseChunks(response)) {
      chunks.push(chunk.type);
      if (chunk.type === "text-delta") gone.abort();
    }
    expect(chunks).not.toContain("finish");
    held.open();
    expect((await held.result.response).text).toBe(ANSWER);
  });
});

describe("resumeStream of a turn with tool calls", () => {
  it("a page loaded after the tool step shows it stored; the replay puts the whole turn in its place, once", async () => {
    const { z } = await import("zod");
    const { tool } = await import("../tools/tool");
    const { convertToUIMessages } = await import("../ui/convert-to-ui-messages");
    const mock = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "call-1", name: "lookup", arguments: { city: "Paris" } }] }, { text: ANSWER }],
    });
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let calls = 0;
    const model = {
      provider: mock.provider,
      modelId: mock.modelId,
      doGenerate: mock.doGenerate.bind(mock),
      async *doStream(call: Parameters<typeof mock.doStream>[0]) {
        if (calls++ === 1) await gate; // the second step waits
        yield* mock.doStream(call);
      },
    };
    const store = new InMemoryStore();
    const lookup = tool({
      description: "Looks up",
      parameters: z.object({ city: z.string() }),
      execute: async () => "sunny",
    });
    const result = streamText({
      model,
      tools: { lookup },
      maxSteps: 2,
      messages: [{ id: "u1", role: "user", content: "Weather?" }],
      sessionId: "s",
      memoryStore: store,
      resumable: true,
    });
    for await (const chunk of responseChunks(result.toUIMessageStreamResponse())) {
      if (chunk.type === "tool-output-available") break;
    }
    // The run may have stored the tool step by now: never as an empty assistant message, and under the
    // id the replay announces, so the replay takes its place.
    const midway = convertToUIMessages(await store.getMessages("s"));
    const resumed = foldResponse(await resumeStream({ sessionId: "s", memoryStore: store }));
    open();
    const { message, chunks } = await resumed;
    for (const shown of midway.filter((entry) => entry.role === "assistant")) {
      expect(shown.parts.length).toBeGreaterThan(0);
      expect(chunks[0]).toEqual({ type: "start", messageId: shown.id });
    }
    await result.response;
    const stored = convertToUIMessages(await store.getMessages("s"));
    expect(stored.map((entry) => entry.role)).toEqual(["user", "assistant"]);
    expect(message).toEqual(stored.at(-1));
  });
});
