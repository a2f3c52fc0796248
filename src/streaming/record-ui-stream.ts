// `streamText({ resumable: true })`'s UI stream: each chunk sent to the client is also recorded in
// the store's stream log (`backendOf(store).streamLog`), so `resumeStream` can replay it to a client
// that reconnects (docs/resumable-streams.md).
import type { StreamLog, StreamLogLimits } from "../stores/stream-log";
import type { UIMessageChunk } from "./ui-message-stream";

/** Where and how a stream is recorded. */
export interface StreamRecording {
  log: StreamLog;
  sessionId: string;
  streamId: string;
  limits: StreamLogLimits;
}

/**
 * The UI message stream response body of `chunks`, recorded as it goes. The chunks are read to the
 * end whether or not the client reads them (a client that goes away leaves the run and its
 * recording going; `onCancel` applies the disconnect policy). The first chunk (`start`) is held
 * until the run gives its first part, that is until the run stored its user message: a page that
 * loads the history from then on has the user message, and the stream becomes resumable only then.
 * Chunks are written to the log in order, in batches (one write in flight at a time), so recording
 * never slows the client's stream; a failed write stops the recording (logged), never the answer.
 */
export function recordUIStream(
  chunks: AsyncIterable<UIMessageChunk>,
  recording: StreamRecording,
  onCancel: () => void,
): ReadableStream<Uint8Array> {
  const { log, sessionId, streamId, limits } = recording;
  const encoder = new TextEncoder();
  const queue: string[] = [];
  let finished = false;
  let failure: { error: unknown } | undefined;
  let cancelled = false;
  let wake: (() => void) | undefined;
  const deliver = (json: string | undefined) => {
    if (json !== undefined && !cancelled) queue.push(json);
    wake?.();
  };

  let recordingOn = true;
  let pending: string[] = [];
  let flushing: Promise<void> | undefined;
  const stop = (error: unknown) => {
    if (!recordingOn) return;
    recordingOn = false;
    console.error(`[agentcore] the resumable stream of session "${sessionId}" stopped recording:`, error);
  };
  const flush = async () => {
    while (pending.length > 0 && recordingOn) {
      const batch = pending;
      pending = [];
      try {
        // false: past maxBytes, the log marked the stream overflowed (no longer resumable).
        if (!(await log.append(sessionId, streamId, batch, limits))) recordingOn = false;
      } catch (error) {
        stop(error);
      }
    }
    flushing = undefined;
  };
  const record = (json: string) => {
    if (!recordingOn) return;
    pending.push(json);
    flushing ??= flush();
  };

  const pump = async () => {
    const iterator = chunks[Symbol.asyncIterator]();
    const emit = (chunk: UIMessageChunk) => {
      const json = JSON.stringify(chunk);
      record(json);
      deliver(json);
    };
    try {
      const start = await iterator.next();
      const second = start.done ? start : await iterator.next();
      try {
        await log.begin(sessionId, streamId, limits);
      } catch (error) {
        stop(error);
      }
      if (!start.done) emit(start.value);
      for (let step = second; !step.done; step = await iterator.next()) emit(step.value);
    } catch (error) {
      // The chunks end with an `error` chunk on a failed run: a throw here fails the response, as unrecorded.
      failure = { error };
    } finally {
      while (flushing) await flushing;
      // Ended even when the recording stopped (overflowed or failed), so its followers stop waiting.
      const quiet = !recordingOn;
      await log.end(sessionId, streamId, limits).catch(quiet ? () => {} : stop);
      finished = true;
      deliver(undefined);
    }
  };
  void pump();

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (queue.length === 0 && !finished) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      if (queue.length > 0) {
        controller.enqueue(
          encoder.encode(
            queue
              .splice(0)
              .map((json) => `data: ${json}\n\n`)
              .join(""),
          ),
        );
        return;
      }
      if (failure) return controller.error(failure.error);
      controller.enqueue(encoder.encode("data: [DONE]\n\n"));
      controller.close();
    },
    cancel() {
      cancelled = true;
      queue.length = 0;
      onCancel();
    },
  });
}
