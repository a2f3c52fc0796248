import type { AgentStreamPart } from "../agent/agent-result";
import { AbortError } from "../errors/abort-error";
import { AgentCoreError } from "../errors/agent-core-error";
import { noMessageLimits } from "../messages/message-limits";
import { uiProviderMetadata } from "../messages/provider-metadata";
import { toContentOutput, toolResultContent } from "../messages/tool-result-content";
import type { AgentMessage } from "../messages/agent-message";
import { foldMessageMetadata } from "../ui/ui-message-metadata";

/** A chunk of the AI SDK's UI message stream protocol (v1), as `useChat` reads it. */
export type UIMessageChunk =
  | { type: "start"; messageId?: string; messageMetadata?: Record<string, unknown> }
  | { type: "start-step" }
  | { type: "text-start"; id: string }
  | { type: "text-delta"; id: string; delta: string }
  | { type: "text-end"; id: string }
  | { type: "reasoning-start"; id: string; providerMetadata?: Record<string, unknown> }
  | { type: "reasoning-delta"; id: string; delta: string; providerMetadata?: Record<string, unknown> }
  | { type: "reasoning-end"; id: string; providerMetadata?: Record<string, unknown> }
  | { type: "tool-input-start"; toolCallId: string; toolName: string }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | { type: "tool-input-available"; toolCallId: string; toolName: string; input: unknown }
  | { type: "tool-output-available"; toolCallId: string; output: unknown }
  | { type: "tool-output-error"; toolCallId: string; errorText: string }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string }
  | { type: "tool-output-denied"; toolCallId: string }
  | { type: "finish-step" }
  /** A data part (`data-<name>`): `transient` ones reach `useChat`'s `onData` only, never the message's parts. */
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: "finish" }
  /** The message's metadata so far (`useChat` merges it into the message's `metadata`). */
  | { type: "message-metadata"; messageMetadata: Record<string, unknown> }
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
  /**
   * Id of the assistant message the client creates. Leave it out: `streamText` then announces the id
   * the answer is stored under (its first assistant message's), so `useChat` can edit and regenerate
   * it without a reload; an id given here is the page's only. None when the request continues a
   * turn that stopped for tool approvals, so `useChat` goes on with its last message.
   * @default streamText's: the stored answer's id; `toUIMessageChunks` alone: a random UUID
   */
  messageId?: string;
  /**
   * Text of the `error` chunk sent to the browser. By default an agentcore error's
   * `publicMessage` (a text written for the end user: "The model could not be reached. Try again
   * in a moment.", "A tool call is waiting for your approval…") and "An error occurred." for any
   * other error, so server details never reach the client. Return `error.message` to show them.
   */
  onError?: (error: unknown) => string;
}

/**
 * Maps an agent's stream parts to UI message stream chunks: text and reasoning blocks with ids (a
 * reasoning block's provider metadata, its signature, on its `reasoning-end`, where `useChat` keeps
 * it as the part's `providerMetadata`),
 * tool inputs (`tool-input-start`, the input's JSON text in `tool-input-delta`s as the model writes
 * it, or as one delta when the model gave the call whole, then `tool-input-available`) and outputs,
 * tool approval requests and denials (`tool-approval-request`, `tool-output-denied`), step
 * boundaries, and a final `finish`, `abort` or `error`. After each step, a `message-metadata`
 * chunk with the message's metadata folded so far (`foldMessageMetadata`: what `convertToUIMessages`
 * gives the message after a reload); the app's fields (`messageMetadata`) already on `start`.
 */
export async function* toUIMessageChunks(
  parts: AsyncIterable<AgentStreamPart>,
  options: UIMessageStreamOptions & {
    /** The run continues the client's last assistant message (tool approvals). */ continues?: boolean;
    /** Chunks to send right before `finish` (`streamText`'s `data-title`). */
    beforeFinish?: () => Promise<UIMessageChunk[]>;
    /** The app's fields of the message's metadata (`streamText`'s `messageMetadata`), sent on `start`. */
    messageMetadata?: Record<string, unknown>;
  } = {},
): AsyncGenerator<UIMessageChunk> {
  let open: { kind: "text" | "reasoning"; id: string } | undefined;
  let blockCount = 0;
  const inputStarted = new Set<string>();
  /** Calls this message made: a result for another call answers an earlier message's (below). */
  const called = new Set<string>();
  const close = function* (): Generator<UIMessageChunk> {
    if (open !== undefined) yield { type: open.kind === "text" ? "text-end" : "reasoning-end", id: open.id };
    open = undefined;
  };
  /** Opens a block of `kind` unless one is open, closing a block of the other kind first; returns its id. */
  const start = function* (kind: "text" | "reasoning"): Generator<UIMessageChunk, string> {
    if (open?.kind === kind) return open.id;
    yield* close();
    open = { kind, id: `${kind}-${++blockCount}` };
    yield { type: kind === "text" ? "text-start" : "reasoning-start", id: open.id };
    return open.id;
  };
  /** The stored messages of the steps streamed so far: their metadata folds into the message's. */
  const sources: AgentMessage[] = [];
  const appMetadata = options.messageMetadata === undefined ? {} : { messageMetadata: options.messageMetadata };
  yield options.continues && options.messageId === undefined
    ? { type: "start", ...appMetadata }
    : { type: "start", messageId: options.messageId ?? globalThis.crypto.randomUUID(), ...appMetadata };
  for await (const part of parts) {
    switch (part.type) {
      case "step-start":
        // A retried request's stored answer (`replayed`): the page takes the stored message's id
        // (a second `start` with a `messageId` sets it, as the AI SDK's reader does).
        if (part.messageId !== undefined && !options.continues) yield { type: "start", messageId: part.messageId };
        yield { type: "start-step" };
        break;
      case "text-delta": {
        const id = yield* start("text");
        yield { type: "text-delta", id, delta: part.delta };
        break;
      }
      case "reasoning-delta": {
        const id = yield* start("reasoning");
        yield { type: "reasoning-delta", id, delta: part.delta, ...withMetadata(part.providerMetadata) };
        break;
      }
      case "reasoning-end": {
        // A block without deltas (redacted thinking) opens here, so useChat keeps it as a part.
        const id = yield* start("reasoning");
        open = undefined;
        yield { type: "reasoning-end", id, ...withMetadata(part.providerMetadata) };
        break;
      }
      case "tool-input-start":
        yield* close();
        inputStarted.add(part.toolCallId);
        yield { type: "tool-input-start", toolCallId: part.toolCallId, toolName: part.toolName };
        break;
      case "tool-input-delta":
        yield { type: "tool-input-delta", toolCallId: part.toolCallId, inputTextDelta: part.delta };
        break;
      case "tool-call":
        yield* close();
        called.add(part.toolCall.id);
        // A call whose input did not stream (a model that gives calls whole) gets it as one delta.
        if (!inputStarted.delete(part.toolCall.id)) {
          yield { type: "tool-input-start", toolCallId: part.toolCall.id, toolName: part.toolCall.name };
          yield {
            type: "tool-input-delta",
            toolCallId: part.toolCall.id,
            inputTextDelta: JSON.stringify(part.toolCall.arguments),
          };
        }
        yield {
          type: "tool-input-available",
          toolCallId: part.toolCall.id,
          toolName: part.toolCall.name,
          input: part.toolCall.arguments,
        };
        break;
      case "tool-approval-request":
        yield* close();
        yield {
          type: "tool-approval-request",
          approvalId: part.approval.approvalId,
          toolCallId: part.approval.toolCallId,
        };
        break;
      case "tool-result":
        // A call of the client's previous message, denied by this run's new message (pendingApprovals):
        // this new message does not hold it, so its output is shown by a reload, not streamed here.
        if (!options.continues && !called.has(part.toolCallId)) break;
        if (part.denied) {
          yield { type: "tool-output-denied", toolCallId: part.toolCallId };
          break;
        }
        yield part.isError
          ? { type: "tool-output-error", toolCallId: part.toolCallId, errorText: String(part.result) }
          : { type: "tool-output-available", toolCallId: part.toolCallId, output: toolOutputValue(part.result) };
        break;
      case "object-retry":
        // What streamed of the failed reply stays its own text part; the retried reply starts a new one.
        yield* close();
        break;
      case "step-finish": {
        yield* close();
        yield { type: "finish-step" };
        // A continued message holds steps this stream never saw: its metadata is the reload's to show.
        if (part.messages === undefined || options.continues) break;
        sources.push(...part.messages);
        const metadata = foldMessageMetadata(sources);
        if (metadata !== undefined) yield { type: "message-metadata", messageMetadata: metadata };
        break;
      }
      case "finish":
        yield* close();
        if (options.beforeFinish) yield* await options.beforeFinish();
        yield { type: "finish" };
        break;
      case "error": {
        yield* close();
        if (AbortError.isInstance(part.error)) {
          yield { type: "abort" };
        } else {
          yield { type: "error", errorText: (options.onError ?? publicErrorText)(part.error) };
        }
        break;
      }
    }
  }
}

/** The default text of an `error` chunk: an agentcore error's `publicMessage`, else a masked text. */
function publicErrorText(error: unknown): string {
  return (AgentCoreError.isInstance(error) && error.publicMessage) || "An error occurred.";
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

/** `providerMetadata` as useChat accepts it (`uiProviderMetadata`), when there is any. */
function withMetadata(options: Record<string, unknown> | undefined): { providerMetadata?: Record<string, unknown> } {
  const metadata = uiProviderMetadata(options);
  return metadata === undefined ? {} : { providerMetadata: metadata };
}

/** A result given as parts in the AI SDK's content output (as `convertToUIMessages` gives it), else as JSON. */
function toolOutputValue(result: unknown): unknown {
  const content = toolResultContent(result, noMessageLimits);
  if ("content" in content && typeof content.content !== "string") return toContentOutput(content.content);
  return toJsonValue(result);
}

function toJsonValue(value: unknown): unknown {
  if (value === undefined) return null;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch {
    return String(value);
  }
}
