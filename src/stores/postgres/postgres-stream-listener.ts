// The LISTEN of PostgresMemoryStore's stream log (postgres-stream-log.ts): one client of the store's
// pool, taken on the first follower and given back with the last, LISTENs on the streams' channel
// and wakes the followers of the stream a notification names.
import type { Pool, PoolClient } from "pg";

export class PostgresStreamListener {
  private listening: Promise<PoolClient> | undefined;
  /** Per stream id, its followers' wake-ups. */
  private readonly followers = new Map<string, Set<() => void>>();

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
  ) {}

  /** Calls `onNotify` on each notification of `streamId` once listening; resolves to the end of it. */
  async listen(streamId: string, onNotify: () => void): Promise<() => Promise<void>> {
    let handlers = this.followers.get(streamId);
    if (!handlers) this.followers.set(streamId, (handlers = new Set()));
    handlers.add(onNotify);
    const listening = (this.listening ??= this.connect());
    let client: PoolClient;
    try {
      client = await listening;
    } catch (error) {
      if (this.listening === listening) this.listening = undefined;
      this.forget(streamId, onNotify);
      throw error;
    }
    return async () => {
      this.forget(streamId, onNotify);
      if (this.followers.size > 0 || this.listening !== listening) return;
      this.listening = undefined;
      try {
        await client.query(`UNLISTEN "${this.channel}"`);
        client.release();
      } catch (error) {
        client.release(error instanceof Error ? error : true);
      }
    };
  }

  private forget(streamId: string, onNotify: () => void): void {
    const handlers = this.followers.get(streamId);
    handlers?.delete(onNotify);
    if (handlers?.size === 0) this.followers.delete(streamId);
  }

  private async connect(): Promise<PoolClient> {
    const client = await this.pool.connect();
    // A lost connection costs its followers a poll interval (they read again on a timer too).
    client.on("error", () => {});
    client.on("notification", (message) => {
      if (message.channel !== this.channel || message.payload === undefined) return;
      for (const handler of [...(this.followers.get(message.payload) ?? [])]) handler();
    });
    try {
      await client.query(`LISTEN "${this.channel}"`);
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    return client;
  }
}
