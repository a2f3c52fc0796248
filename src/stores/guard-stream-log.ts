// A store's stream log as the backend gives it: every failure a `StoreError` naming the store, the
// operation and the session (`StoreCall`), as the backend's other calls.
import type { StoreCall } from "./store-call";
import type { StreamLog } from "./stream-log";

/** `log` with its calls wrapped by `call` (both backends). */
export function guardStreamLog(log: StreamLog, call: StoreCall): StreamLog {
  const about = (sessionId: string) => `the resumable stream of session "${sessionId}"`;
  return Object.freeze({
    scope: log.scope,
    begin: (sessionId, streamId, limits) =>
      call("streamLog.begin", sessionId, `Could not start recording ${about(sessionId)}`, () =>
        log.begin(sessionId, streamId, limits),
      ),
    append: (sessionId, streamId, chunks, limits) =>
      call("streamLog.append", sessionId, `Could not record ${about(sessionId)}`, () =>
        log.append(sessionId, streamId, chunks, limits),
      ),
    end: (sessionId, streamId, limits) =>
      call("streamLog.end", sessionId, `Could not end ${about(sessionId)}`, () => log.end(sessionId, streamId, limits)),
    latest: (sessionId) =>
      call("streamLog.latest", sessionId, `Could not look up ${about(sessionId)}`, () => log.latest(sessionId)),
    read: (sessionId, streamId, from) =>
      call("streamLog.read", sessionId, `Could not read ${about(sessionId)}`, () =>
        log.read(sessionId, streamId, from),
      ),
    follow: (sessionId, streamId, signal) => {
      const follower = log.follow(sessionId, streamId, signal);
      return {
        wait: (known) =>
          call("streamLog.follow", sessionId, `Could not follow ${about(sessionId)}`, () => follower.wait(known)),
        close: () =>
          call("streamLog.follow", sessionId, `Could not stop following ${about(sessionId)}`, follower.close),
      };
    },
  } satisfies StreamLog);
}
