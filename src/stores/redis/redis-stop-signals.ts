import type { Cluster, Redis } from "ioredis";
import { LocalStopWatchers, type Referable, type StopListener, type StopSignals, unrefTimer } from "../stop-signals";

/** The subscriber's socket (ioredis' `stream`), to unreference while it lingers. */
const socketOf = (subscriber: Redis | Cluster) => (subscriber as { stream?: Referable }).stream;

/** How long a store's subscriber connection stays open after its last run ended, in ms. */
export const IDLE_LINGER_MS = 60_000;

/**
 * `RedisMemoryStore`'s stops, by Redis pub/sub: a stop is a `PUBLISH` of the session id on the
 * store's channel (`<prefix>stop`), sent on your client; the runs of this store object listen on
 * one dedicated subscriber connection (`client.duplicate()`), opened by the first run that watches
 * and kept for `IDLE_LINGER_MS` after the last run ends (so back-to-back runs do not reconnect),
 * its socket unreferenced meanwhile (an idle store never keeps a process alive); then closed. On a Cluster, whose
 * sockets are not reachable, it is closed as soon as no run of the store runs.
 * On a Redis Cluster, a `PUBLISH` reaches every node's subscribers. A stop with no run listening
 * reaches nobody and is not kept.
 */
export class RedisStopSignals implements StopSignals {
  private readonly local = new LocalStopWatchers();
  /** The subscriber while one is open or opening, and its subscription. */
  private subscription: { subscriber: Redis | Cluster; ready: Promise<void> } | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly client: Redis | Cluster,
    private readonly channel: string,
    private readonly lingerMs = IDLE_LINGER_MS,
  ) {}

  async requestStop(sessionId: string): Promise<void> {
    await this.client.publish(this.channel, sessionId);
  }

  async watchStop(sessionId: string, onStop: StopListener): Promise<() => void> {
    const unwatch = this.local.add(sessionId, onStop);
    clearTimeout(this.idle);
    const subscription = this.subscribe();
    try {
      await subscription.ready;
      socketOf(subscription.subscriber)?.ref?.();
    } catch (error) {
      unwatch();
      this.closeIfIdle(subscription, true);
      throw error;
    }
    return () => {
      unwatch();
      this.closeIfIdle(subscription);
    };
  }

  private subscribe(): NonNullable<RedisStopSignals["subscription"]> {
    if (this.subscription) return this.subscription;
    const subscriber = (this.client.duplicate as () => Redis | Cluster).call(this.client);
    // Reconnects (and subscribes again) on its own; a failure to subscribe rejects `ready`.
    subscriber.on("error", () => {});
    // A connection made while no run watches (a reconnect while lingering) keeps no process alive.
    subscriber.on("connect", () => {
      if (this.local.size === 0) socketOf(subscriber)?.unref?.();
    });
    subscriber.on("message", (channel: string, sessionId: string) => {
      if (channel === this.channel) this.local.deliver(sessionId);
    });
    const ready = subscriber.subscribe(this.channel).then(() => {});
    this.subscription = { subscriber, ready };
    return this.subscription;
  }

  /** Closes `subscription` once no run watches (after the linger; unless a newer one replaced it). */
  private closeIfIdle(subscription: NonNullable<RedisStopSignals["subscription"]>, now = false): void {
    if (this.local.size > 0 || this.subscription !== subscription) return;
    const close = () => {
      if (this.local.size > 0 || this.subscription !== subscription) return;
      this.subscription = undefined;
      subscription.subscriber.disconnect();
    };
    const cluster = (this.client as { isCluster?: boolean }).isCluster === true;
    if (now || cluster || this.lingerMs === 0) {
      close();
      return;
    }
    clearTimeout(this.idle);
    socketOf(subscription.subscriber)?.unref?.();
    this.idle = unrefTimer(setTimeout(close, this.lingerMs));
  }
}
