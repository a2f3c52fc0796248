import type { Cluster, Redis } from "ioredis";
import { LocalStopWatchers, type StopListener, type StopSignals } from "../stop-signals";

/**
 * `RedisMemoryStore`'s stops, by Redis pub/sub: a stop is a `PUBLISH` of the session id on the
 * store's channel (`<prefix>stop`), sent on your client; the runs of this store object listen on
 * one dedicated subscriber connection (`client.duplicate()`), opened by the first run that watches
 * and closed when no run of the store runs any more, so an idle store holds no extra connection.
 * On a Redis Cluster, a `PUBLISH` reaches every node's subscribers. A stop with no run listening
 * reaches nobody and is not kept.
 */
export class RedisStopSignals implements StopSignals {
  private readonly local = new LocalStopWatchers();
  /** The subscriber while one is open or opening, and its subscription. */
  private subscription: { subscriber: Redis | Cluster; ready: Promise<void> } | undefined;

  constructor(
    private readonly client: Redis | Cluster,
    private readonly channel: string,
  ) {}

  async requestStop(sessionId: string): Promise<void> {
    await this.client.publish(this.channel, sessionId);
  }

  async watchStop(sessionId: string, onStop: StopListener): Promise<() => void> {
    const unwatch = this.local.add(sessionId, onStop);
    const subscription = this.subscribe();
    try {
      await subscription.ready;
    } catch (error) {
      unwatch();
      this.closeIfIdle(subscription);
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
    subscriber.on("message", (channel: string, sessionId: string) => {
      if (channel === this.channel) this.local.deliver(sessionId);
    });
    const ready = subscriber.subscribe(this.channel).then(() => {});
    this.subscription = { subscriber, ready };
    return this.subscription;
  }

  /** Closes `subscription` when no run watches (unless a newer one replaced it). */
  private closeIfIdle(subscription: NonNullable<RedisStopSignals["subscription"]>): void {
    if (this.local.size > 0 || this.subscription !== subscription) return;
    this.subscription = undefined;
    subscription.subscriber.disconnect();
  }
}
