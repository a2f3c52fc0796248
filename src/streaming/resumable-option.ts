// `streamText`'s `resumable` option: checked once, and turned into the recording of one response
// (`recordUIStream`) in the store's stream log.
import { integerOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { backendOf } from "../stores/backend-of";
import type { MemoryStore } from "../stores/memory-store";
import { DEFAULT_STREAM_MAX_BYTES, DEFAULT_STREAM_TTL_MS } from "../stores/stream-log";
import type { StreamRecording } from "./record-ui-stream";

/** The bounds of a resumable stream's log (`streamText`'s `resumable`). */
export interface ResumableStreamOptions {
  /**
   * Bytes of chunks (their JSON, UTF-8) one stream records. Past it the stream stops recording and
   * is no longer resumable: `resumeStream` answers 204 and a client following it sees it end where
   * the recording stopped (the answer itself goes on, and is stored; a reload shows it).
   * @default 4 MiB
   */
  maxBytes?: number;
  /** Ms the log is kept after the turn ends (and after its last chunk while it runs). @default 300000 (5 minutes) */
  ttlMs?: number;
}

/**
 * The recording of each UI stream response of a run, or undefined when `resumable` is off. Needs
 * `memoryStore` and `sessionId` (the stream is found by its session); an `InvalidArgumentError` without.
 */
export function resumableRecording(
  resumable: boolean | ResumableStreamOptions | undefined,
  memoryStore: MemoryStore | undefined,
  sessionId: string | undefined,
): (() => StreamRecording) | undefined {
  if (resumable === undefined || resumable === false) return undefined;
  if (resumable !== true && (typeof resumable !== "object" || resumable === null)) {
    throw new InvalidArgumentError({
      argument: "resumable",
      value: resumable,
      message: "resumable must be true, false or { maxBytes?, ttlMs? }.",
    });
  }
  if (!memoryStore || sessionId === undefined) {
    throw new InvalidArgumentError({
      argument: "resumable",
      message:
        "resumable needs memoryStore and sessionId: resumeStream finds the stream by its session, in the store where it was recorded.",
    });
  }
  const options = resumable === true ? {} : resumable;
  const limits = {
    maxBytes: integerOption(options.maxBytes, "resumable.maxBytes", DEFAULT_STREAM_MAX_BYTES),
    ttlMs: integerOption(options.ttlMs, "resumable.ttlMs", DEFAULT_STREAM_TTL_MS),
  };
  const log = backendOf(memoryStore).streamLog;
  return () => ({ log, sessionId, streamId: globalThis.crypto.randomUUID(), limits });
}
