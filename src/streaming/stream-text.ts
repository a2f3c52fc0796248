import { Agent, streamDescribedRun } from "../agent/agent";
import type { AgentOptions, AppContextOption } from "../agent/agent-options";
import type { AgentResult, AgentStreamPart } from "../agent/agent-result";
import type { AgentStream, DeepPartial } from "../agent/agent-stream";
import type { InferOutput, OutputSpec } from "../agent/output-spec";
import { AbortError } from "../errors/abort-error";
import type { MemoryStore } from "../stores/memory-store";
import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModelUsage } from "../models/language-model";
import type { PendingTitle } from "../agent/pending-title";
import { validateMetadataArgument } from "../messages/message-metadata";
import { combineSignals } from "./combine-signals";
import { recordUIStream } from "./record-ui-stream";
import { requestToRun } from "./request-to-run";
import { resumableRecording, type ResumableStreamOptions } from "./resumable-option";
import {
  encodeUIMessageStream,
  toUIMessageChunks,
  UI_MESSAGE_STREAM_HEADERS,
  type UIMessageChunk,
  type UIMessageStreamOptions,
} from "./ui-message-stream";

export interface StreamTextFinishEvent {
  /** The whole result of the run. */
  response: AgentResult;
  /** The messages this request added to the session: the user message, then the turn. */
  messages: AgentMessage[];
  text: string;
  usage: LanguageModelUsage;
}

/**
 * `Context`: the type of the app's context (`context`) the run gives its tools and `prepareStep`
 * (docs/sessions-and-runs.md, "App context").
 */
export interface StreamTextOptions<Context = unknown>
  extends Omit<AgentOptions<Context>, "sessionId" | "systemPrompt"> {
  /**
   * The conversation as the client sent it, converted with `convertToModelMessages`. Its last
   * message is the new user message, or the assistant message with the user's answers to tool
   * approvals (`approval-responded` parts, `useChat`'s `addToolApprovalResponse`): the stored turn
   * then goes on with them (needs `memoryStore` and `sessionId`; docs/approvals.md).
   */
  messages: AgentMessage[];
  /** The system prompt. */
  system?: string;
  /** The system prompt under ai 7's name for it; taken over `system` when both are given. */
  instructions?: string;
  /** Alias of `system`. */
  systemPrompt?: string;
  /**
   * With `memoryStore`, the session to continue: the store is then the source of truth and only
   * the new user message is taken from `messages`. Take it from what the server knows of the
   * caller (a signed cookie, the auth session), never from the request body.
   *
   * Without it the request is stateless: the model sees the client's `messages` (the strategy
   * applied), and a `memoryStore` keeps this request's turn in a session of its own
   * (`request-<uuid>`, `response.sessionId`) that no other request reads.
   */
  sessionId?: string;
  /**
   * Who is asking (per-user facts, memory providers, and the session's owner: another user's session
   * is refused with a `SessionOwnershipError`); from the auth session.
   */
  userId?: string;
  /** Stops the model call and the run (e.g. `request.signal`). */
  abortSignal?: AbortSignal;
  /**
   * The app's context of the run (a database handle, the signed-in user from the auth session),
   * given as is to every tool's `execute` and `needsApproval` and to `prepareStep`. Never stored,
   * never sent to a model, never traced or reported. Required when the tools read one.
   */
  context?: Context;
  /**
   * What the request asks for: `useChat` sends it in the request body as `trigger`. Anything else
   * is an `InvalidArgumentError`. With `memoryStore` and `sessionId`:
   * - `"submit-message"`: a new user message, the last of `messages`; with `messageId` (an edit in
   *   `useChat`), the stored user message with that id and everything after it give way to it
   *   (`agent.run`'s `replaceFrom`; an id the store does not hold is a `MessageNotFoundError`).
   * - `"regenerate-message"`: the stored turn is answered again (`agent.run`'s `regenerate`): from
   *   the user message at or before `messageId` when the store holds that id, else the last user
   *   message. `messages` is not read. The old answer is replaced when the new one is stored; a
   *   failed run changes nothing.
   *
   * The ids a page shows are the stored ones, so both work on a message streamed on a page that was
   * never reloaded: the new user message is stored under its client id (a malformed one, or one the
   * session holds, gets a new id), and the UI stream's `start` chunk announces the id the answer's
   * first assistant message is stored under (docs/regenerate.md).
   *
   * Stateless (no `sessionId`), a regenerate is a run on `messages` as the client sent them
   * (`useChat` cut them before the answer it regenerates).
   * @default "submit-message"
   */
  trigger?: "submit-message" | "regenerate-message";
  /** `useChat`'s `messageId` (from the request body): the message `trigger` is about. Validated as a message id. */
  messageId?: string;
  /**
   * The app's own fields for the `metadata` of the assistant messages this request stores (`run()`'s
   * `metadata`: a plain object of JSON values, at most 16 KiB as JSON, without the reserved key
   * `agentcore`; an `InvalidArgumentError` otherwise). The UI stream sends them on its `start` chunk,
   * and after each step the message's whole metadata (agentcore's model, usage, finish reason and
   * duration with them) as `message-metadata`, so `useChat` shows what a reload shows
   * (docs/messages.md, "Message metadata"). Never sent to a model.
   */
  messageMetadata?: Record<string, unknown>;
  /** Lets client-sent system messages reach the model. They are dropped otherwise. @default false */
  allowSystemMessages?: boolean;
  /**
   * Structured output (docs/structured-output.md): the answer is an object of this zod schema;
   * `partialObjectStream` streams it, `object` resolves with it validated.
   */
  output?: OutputSpec;
  /**
   * Called once the run has finished and been stored. Its errors are logged, never thrown. ai 7's
   * name for `onFinish`: when both are given, only `onEnd` is called (as in ai 7).
   */
  onEnd?: (event: StreamTextFinishEvent) => void | Promise<void>;
  /** `onEnd` under ai 6's name; called when there is no `onEnd`. */
  onFinish?: (event: StreamTextFinishEvent) => void | Promise<void>;
  /**
   * Called once when the run fails or is aborted. Without it a failure (not an abort) is logged
   * once on the server (`console.error("[agentcore] streamText failed:", error)`): the UI stream
   * shows the user only a safe text (`UIMessageStreamOptions.onError`), so the log is where the
   * cause is. Pass your own to log elsewhere (it replaces the default log).
   * @default logs a failure with console.error
   */
  onError?: (error: unknown) => void;
  /**
   * Records the UI stream response's chunks in the store's stream log as they are sent, so a client
   * that reconnects (`useChat({ resume: true })`, a GET answered by `resumeStream`) replays them and
   * follows the rest (docs/resumable-streams.md). Needs `memoryStore` and `sessionId`. A run that
   * continues tool approvals is not recorded.
   * @default false
   */
  resumable?: boolean | ResumableStreamOptions;
}

/** Options of the responses of `streamText`. */
export interface StreamResponseOptions {
  /**
   * What a client that goes away mid-answer does to the run: `"finish"` lets it complete and be
   * stored (the answer is there on reload); `"abort"` stops it like an abort signal, so the
   * user message and the completed steps are stored and the interrupted step is not.
   * @default "finish"
   */
  onClientDisconnect?: "finish" | "abort";
}

export interface StreamTextResult<Value = unknown> {
  /** The text as it is generated. */
  readonly textStream: AsyncIterable<string>;
  /** With `output`: the object as it streams (not validated yet). */
  readonly partialObjectStream: AsyncIterable<DeepPartial<Value>>;
  /** With `output`: the validated object, once the run is stored (a `NoObjectGeneratedError` when none came). */
  readonly object: Promise<Value>;
  /** Every part: steps, text deltas, tool calls and results, finish or error. */
  readonly fullStream: AsyncIterable<AgentStreamPart>;
  /** `fullStream` under ai 7's name for it. */
  readonly stream: AsyncIterable<AgentStreamPart>;
  /** The final text. */
  readonly text: Promise<string>;
  /** The final result. */
  readonly response: Promise<AgentResult>;
  /**
   * With `generateTitle`: the title generated for the session after this first turn, once written
   * (undefined when none was: not the session's first turn, a title already there, a failure). Never
   * rejects. The UI message stream announces it as a transient `data-title` part when it is ready
   * before the stream ends (docs/threads.md).
   */
  readonly title: Promise<string | undefined>;
  /** A `text/plain` streaming response of the text. */
  toTextStreamResponse(init?: ResponseInit & StreamResponseOptions): Response;
  /** The chunks of the AI SDK's UI message stream protocol. */
  toUIMessageStream(options?: UIMessageStreamOptions): AsyncIterable<UIMessageChunk>;
  /** A server-sent-events response in the AI SDK's UI message stream protocol, for `useChat`. */
  toUIMessageStreamResponse(options?: UIMessageStreamOptions & ResponseInit & StreamResponseOptions): Response;
}

/**
 * Runs one agent turn for a route handler and streams it. With `memoryStore` and `sessionId`
 * the store is the source of truth (only the client's new user message is used, and client-sent
 * assistant, tool or system messages never reach the model). Without a `sessionId` the messages
 * are used as given (stateless), validated and with the pairing rule restored; a `memoryStore`
 * then keeps the request's turn in a fresh session of its own, so no request ever reads or
 * writes another's conversation (docs/agentcore-document.md, "The Next.js route").
 *
 * A client that disconnects does not stop the run by default: it finishes and is stored, so the
 * answer is there on reload (`onClientDisconnect: "abort"` on the response stops it instead).
 * Pass `abortSignal` to stop it.
 */
export function streamText<Output extends OutputSpec, Context = unknown>(
  options: StreamTextOptions<Context> & AppContextOption<Context> & { output: Output },
): StreamTextResult<InferOutput<Output>>;
/**
 * @deprecated Without `sessionId` a `memoryStore` is not the conversation's source of truth: the
 * model sees only the client's `messages` and each request's turn goes to a session of its own.
 * Pass `sessionId` from your auth session or a signed cookie (never the request body) to continue
 * a stored conversation.
 */
export function streamText<Context = unknown>(
  options: StreamTextOptions<Context> & AppContextOption<Context> & { memoryStore: MemoryStore; sessionId?: undefined },
): StreamTextResult;
export function streamText<Context = unknown>(
  options: StreamTextOptions<Context> & AppContextOption<Context>,
): StreamTextResult;
export function streamText(options: StreamTextOptions): StreamTextResult {
  const {
    messages,
    system,
    instructions,
    sessionId,
    userId,
    abortSignal,
    allowSystemMessages,
    onEnd,
    onFinish,
    onError,
    trigger,
    messageId,
    output,
    messageMetadata,
    resumable,
    context,
    ...agentOptions
  } = options;
  const metadata =
    messageMetadata === undefined ? undefined : validateMetadataArgument(messageMetadata, "messageMetadata");
  const request = requestToRun(options);
  const { runOptions, history, regenerateFrom, userMessageId, assistantMessageId, continues } = request;
  const recording = continues ? undefined : resumableRecording(resumable, agentOptions.memoryStore, sessionId);
  const systemPrompt =
    [instructions ?? system ?? options.systemPrompt, ...request.clientSystem].filter(Boolean).join("\n\n") || undefined;

  if (agentOptions.memoryStore && sessionId === undefined) warnStatelessStore();
  const agent = new Agent({
    ...agentOptions,
    ...(systemPrompt ? { systemPrompt } : {}),
    sessionId: runOptions.sessionId,
  });

  // Aborted by the caller's signal, or by a response whose client went away (onClientDisconnect: "abort").
  const disconnect = new AbortController();
  const combined = abortSignal ? combineSignals([abortSignal, disconnect.signal]) : undefined;
  // The session's title (generateTitle), when this run generates one.
  let pendingTitle: PendingTitle | undefined;
  const stream: AgentStream = streamDescribedRun(agent, {
    onTitle: (title) => {
      pendingTitle = title;
    },
    options: {
      ...runOptions,
      signal: combined?.signal ?? disconnect.signal,
      ...(metadata ? { metadata } : {}),
      ...(context === undefined ? {} : { context }),
    },
    history,
    regenerateFrom,
    // The ids the page shows are the stored ones: the new user message keeps the client's id, and the
    // answer is stored under the id the UI stream announces.
    messageIds: {
      ...(userMessageId === undefined ? {} : { user: userMessageId }),
      ...(assistantMessageId === undefined ? {} : { assistant: assistantMessageId }),
    },
  });
  const onCancel = (options: StreamResponseOptions) => () => {
    if (options.onClientDisconnect === "abort") disconnect.abort(new Error("The client disconnected."));
  };

  // The run is over: stop listening to the caller's signal.
  if (combined) stream.response.then(combined.dispose, combined.dispose);
  const onRunEnd = onEnd ?? onFinish;
  stream.response.then(
    async (response) => {
      try {
        await onRunEnd?.({ response, messages: response.messages, text: response.text, usage: response.usage });
      } catch (error) {
        console.error(`[agentcore] streamText ${onEnd ? "onEnd" : "onFinish"} threw:`, error);
      }
    },
    (error) => {
      if (onError) onError(error);
      else if (!AbortError.isInstance(error)) console.error("[agentcore] streamText failed:", error);
    },
  );

  const title = stream.response.then(
    () => pendingTitle?.written,
    () => undefined,
  );
  /** A title generated before the answer ended is announced (once written) before `finish`. */
  const beforeFinish = async (): Promise<UIMessageChunk[]> => {
    if (pendingTitle?.generated === undefined) return [];
    // The title is written once the run completed: the stream's end is when the response resolves.
    const written = await stream.response.then(
      () => pendingTitle?.written,
      () => undefined,
    );
    return written === undefined ? [] : [{ type: "data-title", data: { title: written }, transient: true }];
  };

  return {
    title,
    textStream: stream.textStream,
    get partialObjectStream() {
      return stream.partialObjectStream;
    },
    get object() {
      return stream.object;
    },
    fullStream: stream.fullStream,
    stream: stream.fullStream,
    text: stream.text,
    response: stream.response,
    toTextStreamResponse(init = {}) {
      const encoder = new TextEncoder();
      const iterator = stream.textStream[Symbol.asyncIterator]();
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const next = await iterator.next();
            if (next.done) controller.close();
            else controller.enqueue(encoder.encode(next.value));
          } catch (error) {
            controller.error(error);
          }
        },
        cancel: onCancel(init),
      });
      const { onClientDisconnect: _policy, ...responseInit } = init;
      return new Response(body, {
        ...responseInit,
        status: init.status ?? 200,
        headers: mergeHeaders({ "content-type": "text/plain; charset=utf-8" }, init.headers),
      });
    },
    toUIMessageStream(streamOptions = {}) {
      return toUIMessageChunks(stream.fullStream, {
        ...(assistantMessageId === undefined ? {} : { messageId: assistantMessageId }),
        ...streamOptions,
        continues,
        beforeFinish,
        ...(metadata ? { messageMetadata: metadata } : {}),
      });
    },
    toUIMessageStreamResponse(responseOptions = {}) {
      const { messageId, onError: mapError, headers, status, statusText } = responseOptions;
      const chunks = toUIMessageChunks(stream.fullStream, {
        continues,
        beforeFinish,
        ...(metadata ? { messageMetadata: metadata } : {}),
        ...(messageId || assistantMessageId ? { messageId: messageId || assistantMessageId } : {}),
        ...(mapError ? { onError: mapError } : {}),
      });
      const body = recording
        ? recordUIStream(chunks, recording(), onCancel(responseOptions))
        : encodeUIMessageStream(chunks, onCancel(responseOptions));
      return new Response(body, {
        status: status ?? 200,
        ...(statusText ? { statusText } : {}),
        headers: mergeHeaders(UI_MESSAGE_STREAM_HEADERS, headers),
      });
    },
  };
}

let warnedStatelessStore = false;

/** Once per process, outside production: a memoryStore without a sessionId continues no conversation. */
function warnStatelessStore(): void {
  if (warnedStatelessStore || globalThis.process?.env?.NODE_ENV === "production") return;
  warnedStatelessStore = true;
  console.warn(
    "[agentcore] streamText got a memoryStore but no sessionId: this request answers on the client's messages and its turn is kept in a session of its own. " +
      "Pass sessionId (from your auth session or a signed cookie, never the request body) to continue a stored conversation.",
  );
}

function mergeHeaders(base: Record<string, string>, extra: HeadersInit | undefined): Headers {
  const headers = new Headers(base);
  if (extra) new Headers(extra).forEach((value, key) => headers.set(key, value));
  return headers;
}
