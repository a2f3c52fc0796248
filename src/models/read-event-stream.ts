import type { LanguageModelStreamPart } from "./language-model";
import { ServerSentEventDecoder } from "./server-sent-event-decoder";

/** Stream parts waiting to be read, in order: what an adapter's event decoder fills. */
export class StreamPartQueue {
  private readonly queue: LanguageModelStreamPart[] = [];
  private head = 0;

  push(part: LanguageModelStreamPart): void {
    this.queue.push(part);
  }

  /** The next part, or `undefined` when none is waiting. */
  shift(): LanguageModelStreamPart | undefined {
    if (this.head < this.queue.length) return this.queue[this.head++];
    if (this.head > 0) this.queue.length = this.head = 0;
    return undefined;
  }
}

export interface ReadEventStreamOptions {
  /** Makes the request with the provider's SDK (auth, headers, retries, HTTP errors): its raw response. */
  open: () => Promise<Response>;
  /**
   * One event into parts (pushed to `parts`): its data and its type (the `event:` field,
   * `undefined` when it has none). Throws, or returns a promise that rejects, to fail the stream.
   */
  decode: (data: string, event: string | undefined) => void | Promise<void>;
  /** The parts the events become; `end()` adds what is owed once the body has ended (`finish`). */
  parts: { shift(): LanguageModelStreamPart | undefined; end(): void };
  /** The call's signal: once aborted, no more parts; the body is cancelled and its reason thrown. */
  abortSignal?: AbortSignal | undefined;
  /** Maps what the stream throws (the SDK's errors, a cut body) to the error the caller sees. */
  wrapError: (error: unknown) => unknown;
}

/**
 * Reads a streamed model answer from the SDK's raw response: each read of the body is decoded at
 * once into parts (`ServerSentEventDecoder`, then the adapter's `decode`), one event at a time, so
 * the first part is out before the rest of a large read is parsed. A plain async iterator, with no
 * generator hop per chunk, linear in the body (the SDKs' own streams copy or re-scan their buffer
 * per event and pass each through several async generators). Breaking off (an abort, a consumer
 * that stops) cancels the body, which closes the request.
 */
export function readEventStream(options: ReadEventStreamOptions): AsyncIterator<LanguageModelStreamPart> {
  const { parts, abortSignal } = options;
  const events = new ServerSentEventDecoder();
  let body: ResponseBody | undefined;
  let bodyEnded = false;
  let finished = false; // the body has ended and `parts.end()` was called: the parts queued are the last
  let stopped = false; // failed or broken off: nothing more
  return {
    next: async (): Promise<IteratorResult<LanguageModelStreamPart>> => {
      for (;;) {
        if (stopped) return { done: true, value: undefined };
        try {
          if (abortSignal?.aborted && !finished) throw abortSignal.reason;
          const part = parts.shift();
          if (part) return { done: false, value: part };
          if (finished) return { done: true, value: undefined };
          const data = events.next();
          if (data !== undefined) {
            const decoding = options.decode(data, events.lastEvent);
            if (decoding) await decoding;
          } else if (bodyEnded) {
            finished = true;
            parts.end();
          } else {
            body ??= responseBody(await options.open());
            const read = await body.read();
            if (read.done) {
              events.end();
              bodyEnded = true;
            } else if (read.value) {
              events.push(read.value);
            }
          }
        } catch (error) {
          stopped = true;
          void body?.cancel();
          throw options.wrapError(error);
        }
      }
    },
    return: async (): Promise<IteratorResult<LanguageModelStreamPart>> => {
      stopped = true;
      await body?.cancel();
      return { done: true, value: undefined };
    },
  };
}

/** A response body, read chunk by chunk; `cancel` ends the request. */
interface ResponseBody {
  read(): Promise<{ done?: boolean | undefined; value?: Uint8Array | ArrayBuffer | string | undefined }>;
  cancel(): Promise<void>;
}

/**
 * The body of a streamed response: a web `ReadableStream` (global fetch), or an async iterable
 * (a Node stream from a `fetch` option such as node-fetch), as the SDKs accept both.
 */
function responseBody(response: Response): ResponseBody {
  const body = response.body as (ReadableStream<Uint8Array> & Partial<AsyncIterable<Uint8Array>>) | null;
  if (!body) throw new Error("The streamed response has no body.");
  if (typeof body.getReader === "function") {
    const reader = body.getReader();
    return { read: () => reader.read(), cancel: () => reader.cancel().catch(() => {}) };
  }
  const iterator = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  return {
    read: () => iterator.next(),
    cancel: async () => {
      await iterator.return?.()?.catch?.(() => {});
    },
  };
}
