// The subscriptions of an ioredis store (`RedisTransport.subscribe`): a connection of its own, a
// duplicate of the user's client (a subscribed connection serves nothing else), made on the first
// subscription and closed with the last, so an idle store holds no extra connection.
import type { Cluster, Redis } from "ioredis";

export class IoredisSubscriber {
  private connection: Redis | Cluster | undefined;
  /** Per channel: its handlers, and its SUBSCRIBE (a second subscriber waits for it too). */
  private readonly channels = new Map<string, { handlers: Set<() => void>; subscribed: Promise<unknown> }>();

  constructor(private readonly client: Redis | Cluster) {}

  /** Calls `onMessage` on each message of `channel` once subscribed; resolves to the unsubscription. */
  async subscribe(channel: string, onMessage: () => void): Promise<() => Promise<void>> {
    const connection = (this.connection ??= this.open());
    let entry = this.channels.get(channel);
    if (!entry) {
      entry = { handlers: new Set(), subscribed: connection.subscribe(channel) };
      this.channels.set(channel, entry);
    }
    entry.handlers.add(onMessage);
    const current = entry;
    await current.subscribed;
    return async () => {
      current.handlers.delete(onMessage);
      if (current.handlers.size > 0 || this.channels.get(channel) !== current) return;
      this.channels.delete(channel);
      if (this.channels.size > 0) {
        await connection.unsubscribe(channel);
        return;
      }
      if (this.connection === connection) this.connection = undefined;
      await connection.quit().catch(() => connection.disconnect());
    };
  }

  private open(): Redis | Cluster {
    const client = this.client;
    const connection: Redis | Cluster = client.isCluster
      ? (client as Cluster).duplicate()
      : (client as Redis).duplicate();
    // A lost connection costs its followers a poll interval (they read again on a timer too), never an error.
    connection.on("error", () => {});
    connection.on("message", (channel: string) => {
      for (const handler of [...(this.channels.get(channel)?.handlers ?? [])]) handler();
    });
    return connection;
  }
}
