import { SessionBusyError } from "../../errors/session-busy-error";
import { giveBackFailedTake, holdLease } from "../hold-lease";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";
import { redisSessionKeys } from "./redis-layout";
import { integerReply, tailReply, UnexpectedReplyError } from "./redis-replies";
import { lockTailScript, renewScript } from "./redis-scripts";
import type { RedisTransport } from "./redis-transport";

/** Runs one request of a lock operation (the store's `call`: its errors, its request deadline, the signal). */
type LockCall = <T>(sessionId: string, body: () => Promise<T>, signal?: AbortSignal) => Promise<T>;

/**
 * The session locks of the Redis stores: a session's `:lock` key holds its holder's token, set
 * with `SET NX PX` (or by the lock-and-tail script of the folded turn) and living `leaseMs`
 * unless renewed. A timer renews each lock while it is held; the renewal and the release touch
 * the key only while it still holds this holder's token. The store remembers the token of each
 * lock this instance holds: its writes to that session are fenced by it (a holder whose lock was
 * lost is refused), and the run's last append can release it in its own script.
 */
export class RedisSessionLocks {
  /** Token of the session lock this store instance holds (or held until it was taken over), per session. */
  private readonly held = new Map<string, string>();
  /** Tokens of locks released by a run's last append whose release function has not run yet. */
  private readonly releasedInline = new Set<string>();

  constructor(
    private readonly transport: RedisTransport,
    private readonly call: LockCall,
    private readonly prefix: string,
    /** How long a lock lives without being renewed, in ms. */
    private readonly leaseMs: number,
  ) {}

  /** `lockSession`: takes the lock with `SET NX PX`. */
  async acquire(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const key = redisSessionKeys(this.prefix, sessionId).lock;
    const taken = await this.acquireWith(sessionId, options, async (token) => {
      const reply = await this.transport.command(["SET", key, token, "PX", this.leaseMs, "NX"]);
      if (reply === "OK") return true;
      if (reply === null) return undefined;
      throw new UnexpectedReplyError('SET NX\'s "OK" or nil', reply);
    });
    return taken.release;
  }

  /**
   * Takes the session lock with `attempt(token)`, one command or script that sets the lock key
   * (`SET NX PX`) and resolves to what it read, or undefined when the lock is held elsewhere;
   * retried until it takes it or `timeoutMs` passes: a try still unanswered then is raced, not
   * waited for (the call rejects with `SessionBusyError` at its deadline, whatever the request
   * timeout), and the lock it may take is given back once it answers. The lease is then renewed
   * until the release, which deletes the key only while it holds this token (and does nothing once
   * the run's last append released it). A take whose answer never came (a timeout, an abort, a
   * master failing over) may still have landed: it is given back, retried until the delete lands.
   */
  async acquireWith<T>(
    sessionId: string,
    options: SessionLockOptions,
    attempt: (token: string) => Promise<T | undefined>,
  ): Promise<{ release: () => Promise<void>; value: T }> {
    const key = redisSessionKeys(this.prefix, sessionId).lock;
    const token = globalThis.crypto.randomUUID();
    const renew = (leaseMs: number) =>
      this.call(sessionId, async () =>
        integerReply(
          await this.transport.script(renewScript, [key], [token, String(leaseMs)]),
          "the renew script's 0 or 1",
        ),
      );
    const giveBack = () =>
      giveBackFailedTake(this.leaseMs, async () => {
        await renew(0);
      });
    const deadline = Date.now() + Math.max(0, options.timeoutMs);
    let tries = 0;
    /** A try still unanswered at the lock call's deadline, left to finish on its own. */
    let abandoned: Promise<T | undefined> | undefined;
    const tryOnce = (): Promise<T | undefined> => {
      const left = deadline - Date.now();
      // A try that could not be answered before the deadline is not sent (the first always is).
      if (tries++ > 0 && left <= 0) return Promise.resolve(undefined);
      const request = this.call(sessionId, () => attempt(token), options.signal);
      // timeoutMs 0 is one try, waited for (at most one request timeout).
      if (options.timeoutMs <= 0) return request;
      return new Promise<T | undefined>((resolve, reject) => {
        const timer = setTimeout(() => {
          abandoned = request;
          reject(new SessionBusyError({ sessionId }));
        }, left);
        request.then(
          (taken) => {
            clearTimeout(timer);
            resolve(taken);
          },
          (error: unknown) => {
            clearTimeout(timer);
            reject(error);
          },
        );
      });
    };
    let value: T;
    try {
      value = await pollLock(sessionId, options.timeoutMs, tryOnce, options.signal);
    } catch (error) {
      if (abandoned) {
        // Given back once its answer comes (before it, the delete could overtake the take): a
        // take that landed after this call gave up must not keep the session locked.
        void abandoned.then(
          (taken) => (taken === undefined ? undefined : giveBack()),
          () => giveBack(),
        );
      } else if (!SessionBusyError.isInstance(error)) await giveBack();
      throw error;
    }
    this.held.set(sessionId, token);
    const release = holdLease({
      leaseMs: this.leaseMs,
      renew: async () => !this.releasedInline.has(token) && (await renew(this.leaseMs)) === 1,
      release: async () => {
        if (this.held.get(sessionId) === token) this.held.delete(sessionId);
        if (this.releasedInline.delete(token)) return; // released by the run's last append
        await renew(0);
      },
    });
    return { release, value };
  }

  /** The folded lock: the lock-and-tail script with this token (`count` checked by `tailLimit`). */
  async lockAndReadTail(
    sessionId: string,
    token: string,
    count: number,
  ): Promise<{ total: number; raw: string[] } | undefined> {
    const keys = redisSessionKeys(this.prefix, sessionId);
    // LRANGE's start: "" reads no message, "0" the whole list (an Infinity limit), else the last `count`.
    const start = count === 0 ? "" : count === Infinity ? "0" : String(-count);
    const reply = await this.transport.script(
      lockTailScript,
      [keys.lock, keys.messages],
      [token, String(this.leaseMs), start],
    );
    return reply === null ? undefined : tailReply(reply);
  }

  /** The token of the lock this instance holds on the session, if any. */
  tokenOf(sessionId: string): string | undefined {
    return this.held.get(sessionId);
  }

  /** Records that the run's last append released the lock held with `token`: its release function does nothing more. */
  unlockedBy(sessionId: string, token: string): void {
    if (this.held.get(sessionId) === token) this.held.delete(sessionId);
    this.releasedInline.add(token);
  }
}
