// What the resumable stream tests share: a mock model held mid-answer by a gate the test opens, a
// turn run with `streamText({ resumable: true })` whose client reads until the answer started and
// then goes away, and a UI message stream response folded with the AI SDK's own `readUIMessageStream`.
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { LanguageModel } from "../../src/models/language-model";
import { backendOf } from "../../src/stores/backend-of";
import type { MemoryStore } from "../../src/stores/memory-store";
import { streamText, type StreamTextResult } from "../../src/streaming/stream-text";
import type { ResumableStreamOptions } from "../../src/streaming/resumable-option";
import { MockLanguageModel } from "../../src/testing/mock-language-model";

/** The answer the gated model streams, 4 characters a delta. */
export const ANSWER = "Resumed streams end with exactly one copy of the answer.";

/** A `MockLanguageModel` whose stream stops before its `after`-th part until `open()`. */
export function gatedModel(
  after = 3,
  text = ANSWER,
): { model: LanguageModel; open: () => void; mock: MockLanguageModel } {
  const mock = new MockLanguageModel({ responses: [{ text }], chunkSize: 4 });
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const model: LanguageModel = {
    provider: mock.provider,
    modelId: mock.modelId,
    doGenerate: (call) => mock.doGenerate(call),
    async *doStream(call) {
      let index = 0;
      for await (const part of mock.doStream(call)) {
        if (index++ === after) await gate;
        yield part;
      }
    },
  };
  return { model, open, mock };
}

/** The chunks of a UI message stream response body (server-sent events, ending with `[DONE]`). */
export async function* responseChunks(response: Response): AsyncGenerator<UIMessageChunk> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      buffer += value;
      let end = buffer.indexOf("\n\n");
      while (end !== -1) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        const data = event.replace(/^data: /, "");
        if (data !== "[DONE]") yield JSON.parse(data) as UIMessageChunk;
      }
    }
  } finally {
    reader.releaseLock();
    await response.body!.cancel().catch(() => {});
  }
}

/** A response's chunks folded by the AI SDK's `readUIMessageStream`: the message as `useChat` builds it. */
export async function foldResponse(
  response: Response,
): Promise<{ message: UIMessage | undefined; chunks: UIMessageChunk[] }> {
  const chunks: UIMessageChunk[] = [];
  for await (const chunk of responseChunks(response)) chunks.push(chunk);
  let message: UIMessage | undefined;
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const snapshot of readUIMessageStream({ stream })) message = snapshot;
  return { message, chunks };
}

/**
 * Starts a resumable turn on `store` ("u1": "Hi") with a gated model, and reads its response until
 * its first text delta: the answer is then being generated, held by the gate. The client then goes
 * away (its read cancelled), the run goes on.
 */
export async function startHeldTurn(
  store: MemoryStore,
  sessionId: string,
  options: { resumable?: boolean | ResumableStreamOptions; after?: number } = {},
): Promise<{ open: () => void; result: StreamTextResult; mock: MockLanguageModel; seen: UIMessageChunk[] }> {
  const { model, open, mock } = gatedModel(options.after);
  const result = streamText({
    model,
    messages: [{ id: "u1", role: "user", content: "Hi" }],
    sessionId,
    memoryStore: store,
    resumable: options.resumable ?? true,
  });
  const seen: UIMessageChunk[] = [];
  for await (const chunk of responseChunks(result.toUIMessageStreamResponse())) {
    seen.push(chunk);
    if (chunk.type === "text-delta") break;
  }
  return { open, result, mock, seen };
}

/** Resolves once the session's latest stream is no longer recording (its last writes landed). */
export async function recordingEnded(store: MemoryStore, sessionId: string): Promise<void> {
  const log = backendOf(store).streamLog;
  const streamId = await log.latest(sessionId);
  if (streamId === undefined) return;
  while ((await log.read(sessionId, streamId, 2_147_483_647)).state === "running");
}
