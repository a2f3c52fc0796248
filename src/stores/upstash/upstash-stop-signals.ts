import type { RedisStopSession } from "../redis/redis-store-core";
import { LocalStopWatchers, type StopListener, type StopSignals } from "../stop-signals";

/** How often a run on an Upstash store looks for a stop, in ms. */
export const STOP_POLL_INTERVAL_MS = 500;
/** How long a stop key lives, in ms. */
export const STOP_KEY_TTL_MS = 60_000;

/** Copies the session lock's token into the stop key, only while the lock is held (a run runs). */
const requestStopScript = `local token = redis.call('GET', KEYS[1])
if not token then return 0 end
redis.call('SET', KEYS[2], token, 'PX', ARGV[1])
return 1`;

/**
 * `UpstashRedisMemoryStore`'s stops. Redis over HTTP has no subscription, so a stop is a key checked
 * under the lease: the stop writes the token of the session's lock (the running turn's) into
 * `<session's keys>:stop`, expiring after `STOP_KEY_TTL_MS`, in one script, and only while the lock
 * is held; each session running on this store object reads it every `STOP_POLL_INTERVAL_MS` (one
 * `GET` per session per interval, none when no run runs) and stops when it holds its own token. So a
 * stop of no running turn writes nothing, and one for an earlier turn never stops a later one (its
 * lock has another token). A run costs no request more than before until its first poll.
 */
export class UpstashStopSignals implements StopSignals {
  private readonly local = new LocalStopWatchers();
  private readonly polls = new Map<string, ReturnType<typeof setInterval>>();

  constructor(
    private readonly session: RedisStopSession,
    private readonly intervalMs = STOP_POLL_INTERVAL_MS,
  ) {}

  async requestStop(sessionId: string): Promise<void> {
    const keys = this.session.keysOf(sessionId);
    await this.session.transport.script(requestStopScript, [keys.lock, keys.stop], [String(STOP_KEY_TTL_MS)]);
  }

  async watchStop(sessionId: string, onStop: StopListener): Promise<() => void> {
    const unwatch = this.local.add(sessionId, onStop);
    if (!this.polls.has(sessionId)) this.startPolling(sessionId);
    return () => {
      unwatch();
      if (this.local.has(sessionId)) return;
      clearInterval(this.polls.get(sessionId));
      this.polls.delete(sessionId);
    };
  }

  private startPolling(sessionId: string): void {
    let polling = false;
    const poll = async () => {
      const token = this.session.tokenOf(sessionId);
      if (polling || token === undefined) return;
      polling = true;
      try {
        const stop = await this.session.transport.command(["GET", this.session.keysOf(sessionId).stop]);
        if (stop === token && this.session.tokenOf(sessionId) === token) this.local.deliver(sessionId);
      } catch {
        // A failed look is retried at the next interval.
      } finally {
        polling = false;
      }
    };
    const timer = setInterval(() => void poll(), this.intervalMs);
    // The timer never keeps a process alive by itself (Node; other runtimes have no unref).
    (timer as { unref?: () => void }).unref?.();
    this.polls.set(sessionId, timer);
  }
}
