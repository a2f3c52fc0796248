import type { AgentStreamPart } from "../agent/agent-result";
import { AbortError } from "../errors/abort-error";

/** A chunk of the AI SDK's UI message stream protocol (v1), as `useChat` reads it. */
export type UIMessageChunk =
  | { type: "start"; messageId?: string }
  | { type: "start-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "tool-input-start"; toolCallId: string; toolName: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  | { type: "finish-step" }
  | { type: "finish" }
  | { type: "abort" }
  | { type: "error"; errorText: string };

/** Headers of a UI message stream response (the protocol's, as the AI SDK sends them). */
export const UI_MESSAGE_STREAM_HEADERS: Record<string, string> = {
  "content-type": "text/event-stream",
  "cache-control": "no-cache",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
};

export interface UIMessageStreamOptions {
  /** Id of the assistant message the client creates. @default a random UUID */
  messageId?: string;
  /**
   * Text of the `error` chunk sent to the browser. By default errors are masked ("An error
   * occurred.") so server details never reach the client; return `error.message` to show them.
   */
  onError?: (error: unknown) => string;
}

/**
 * Maps an agent's stream parts to UI message stream chunks: text blocks with ids, tool inputs
 * and outputs, step boundaries, and a final `finish`, `abort` or `error`.
 */
export async function* toUIMessageChunks(
  parts: AsyncIterable<AgentStreamPart>,
  options: UIMessageStreamOptions = {},
): AsyncGenerator<UIMessageChunk> {
  let textId: string | undefined;
  let textCount = 0;
  const closeText = function* (): Generator<UIMessageChunk> {
    if (textId !== undefined) yield { type: "text-end", id: textId };
    textId = undefined;
  };
  yield { type: "start", messageId: options.messageId ?? globalThis.crypto.randomUUID() };
  for await (const part of parts) {
    switch (part.type) {
      case "step-start":
        yield { type: "start-step" };
        break;
      case "text-delta":
        if (textId === undefined) {
          textId = `text-${++textCount}`;
          yield { type: "text-start", id: textId };
        }
        yield { type: "text-delta", id: textId, delta: part.delta };
        break;
      case "tool-call":
        yield* closeText();
        yield { type: "tool-input-start", toolCallId: part.toolCall.id, toolName: part.toolCall.name };
        yield {
          type: "tool-input-available",
          toolCallId: part.toolCall.id,
          toolName: part.toolCall.name,
          input: part.toolCall.arguments,
        };
        break;
      case "tool-result":
        yield part.isError
          ? { type: "tool-output-error", toolCallId: part.toolCallId, errorText: String(part.result) }
          : { type: "tool-output-available", toolCallId: part.toolCallId, output: toJsonValue(part.result) };
        break;
      case "step-finish":
        yield* closeText();
        yield { type: "finish-step" };
        break;
      case "finish":
        yield* closeText();
        yield { type: "finish" };
        break;
      case "error": {
        yield* closeText();
        if (AbortError.isInstance(part.error)) {
          yield { type: "abort" };
        } else {
          yield { type: "error", errorText: options.onError ? options.onError(part.error) : "An error occurred." };
        }
        break;
      }
    }
  }
}

/** Encodes chunks as server-sent events, ending with `data: [DONE]`. */
export function encodeUIMessageStream(
  chunks: AsyncIterable<UIMessageChunk>,
  onCancel?: () => void,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const iterator = chunks[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) {
        controller.enqueue(encoder.encode("data: [DONE]\n\n"));
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
    },
    async cancel() {
      onCancel?.();
      await iterator.return?.();
    },
  });
}

function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
