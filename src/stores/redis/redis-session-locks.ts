import { randomUUID } from "node:crypto";
import type { Cluster, Redis } from "ioredis";
import { holdLease } from "../hold-lease";
import type { SessionLockOptions } from "../memory-store";
import { pollLock } from "../poll-lock";
import { redisScript, type RedisCommands } from "./redis-commands";
import { redisSessionKeys } from "./redis-layout";
import { lockTailScript as lockTailSource, renewScript as renewSource } from "./redis-scripts";

const renewScript = redisScript(renewSource);
const lockTailScript = redisScript(lockTailSource);

/**
 * The session locks of a `RedisMemoryStore`: a session's `:lock` key holds its holder's token,
 * set with `SET NX PX` (or by the lock-and-tail script of the folded turn) and living `leaseMs`
 * unless renewed. A timer renews each lock while it is held; the renewal and the release touch
 * the key only while it still holds this holder's token. The store remembers the token of each
 * lock this instance holds, so the run's last append can release it in its own script
 * (`appendReleasing`).
 */
export class RedisSessionLocks {
  /** Token of the session lock this store instance holds (or held until it was taken over), per session. */
  private readonly held = new Map<string, string>();
  /** Tokens of locks released by a run's last append (`appendReleasing`) whose release function has not run yet. */
  private readonly releasedInline = new Set<string>();

  constructor(
    private readonly client: Redis | Cluster,
    private readonly commands: RedisCommands,
    private readonly prefix: string,
    /** How long a lock lives without being renewed, in ms. */
    private readonly leaseMs: number,
  ) {}

  /** `lockSession`: takes the lock with `SET NX PX`. */
  async acquire(sessionId: string, options: SessionLockOptions): Promise<() => Promise<void>> {
    const key = redisSessionKeys(this.prefix, sessionId).lock;
    const taken = await this.acquireWith(sessionId, options, async (token) =>
      (await this.client.set(key, token, "PX", this.leaseMs, "NX")) === "OK" ? true : undefined,
    );
    return taken.release;
  }

  /**
   * Takes the session lock with `attempt(token)`, one command or script that sets the lock key
   * (`SET NX PX`) and resolves to what it read, or undefined when the lock is held elsewhere;
   * retried until it takes it or `timeoutMs` passes. The lease is then renewed until the release,
   * which deletes the key only while it holds this token (and does nothing once the run's last
   * append released it, see `appendReleasing`).
   */
  async acquireWith<T>(
    sessionId: string,
    options: SessionLockOptions,
    attempt: (token: string) => Promise<T | undefined>,
  ): Promise<{ release: () => Promise<void>; value: T }> {
    const key = redisSessionKeys(this.prefix, sessionId).lock;
    const token = randomUUID();
    const value = await pollLock(sessionId, options.timeoutMs, () => attempt(token), options.signal);
    this.held.set(sessionId, token);
    const renew = (leaseMs: number) => this.commands.eval(renewScript, [key], [token, String(leaseMs)]);
    const release = holdLease({
      leaseMs: this.leaseMs,
      renew: async () => !this.releasedInline.has(token) && Number(await renew(this.leaseMs)) === 1,
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
    const reply = (await this.commands.eval(
      lockTailScript,
      [keys.lock, keys.messages],
      [token, String(this.leaseMs), start],
    )) as [number, string[]] | null;
    return reply === null ? undefined : { total: Number(reply[0]), raw: reply[1] };
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
