import type { Client, Notification, Pool, PoolClient } from "pg";
import { LocalStopWatchers, type Referable, type StopListener, type StopSignals, unrefTimer } from "../stop-signals";

/** How long a store's listening connection stays open after its last run ended, in ms. */
export const IDLE_LINGER_MS = 60_000;

/** A store's `LISTEN` connection: ready once it listens; closed when no run watches. */
interface Listening {
  ready: Promise<Connection>;
}

/** A connection of the store's own, and how to give it back. */
interface Connection {
  client: Client | PoolClient;
  close: () => void;
  /** Its socket, unreferenced while it lingers idle (none: one of the pool's, closed at once when idle). */
  socket: Referable | undefined;
}

/**
 * `PostgresMemoryStore`'s stops, by `LISTEN` / `NOTIFY`: a stop is a `pg_notify` of the session id
 * on the store's channel (named after its schema and table prefix), sent through your pool; the runs
 * of this store object listen on one dedicated connection (a `pg` Client made with the pool's
 * options, outside the pool, so it never takes one of its connections), opened by the first run that
 * watches and kept for `IDLE_LINGER_MS` after the last run ends (so back-to-back runs do not
 * reconnect), its socket unreferenced meanwhile (an idle store never keeps a process alive); then
 * closed (at once when it had to be one of the pool's connections). A stop with no run listening reaches
 * nobody and is not kept. Behind a pooler in transaction mode (PgBouncer), `LISTEN` needs a direct
 * connection: give the store a pool whose options reach the server itself.
 */
export class PostgresStopSignals implements StopSignals {
  private readonly local = new LocalStopWatchers();
  private listening: Listening | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly pool: Pool,
    private readonly channel: string,
    private readonly lingerMs = IDLE_LINGER_MS,
  ) {}

  async requestStop(sessionId: string): Promise<void> {
    await this.pool.query("SELECT pg_notify($1, $2)", [this.channel, sessionId]);
  }

  async watchStop(sessionId: string, onStop: StopListener): Promise<() => void> {
    const unwatch = this.local.add(sessionId, onStop);
    clearTimeout(this.idle);
    const listening = this.listen();
    try {
      (await listening.ready).socket?.ref?.();
    } catch (error) {
      unwatch();
      this.closeIfIdle(listening, true);
      throw error;
    }
    return () => {
      unwatch();
      this.closeIfIdle(listening);
    };
  }

  private listen(): Listening {
    if (this.listening) return this.listening;
    const listening: Listening = {
      ready: (async () => {
        const connection = await connect(this.pool);
        connection.client.on("notification", (notification: Notification) => {
          if (notification.channel === this.channel && notification.payload) this.local.deliver(notification.payload);
        });
        // A lost connection: the next run listens on a new one.
        connection.client.on("error", () => this.closeIfIdle(listening, true));
        try {
          await connection.client.query(`LISTEN "${this.channel}"`);
        } catch (error) {
          connection.close();
          throw error;
        }
        return connection;
      })(),
    };
    this.listening = listening;
    return listening;
  }

  /** Closes `listening` when no run watches, or at once when it failed (unless a newer one replaced it). */
  private closeIfIdle(listening: Listening, failed = false): void {
    if (this.listening !== listening || (!failed && this.local.size > 0)) return;
    const close = () => {
      if (this.listening !== listening || (!failed && this.local.size > 0)) return;
      this.listening = undefined;
      listening.ready.then(
        (connection) => connection.close(),
        () => {},
      );
    };
    if (failed || this.lingerMs === 0) {
      close();
      return;
    }
    void listening.ready.then(
      (connection) => {
        if (!connection.socket?.unref || this.listening !== listening || this.local.size > 0) {
          close();
          return;
        }
        clearTimeout(this.idle);
        connection.socket.unref();
        this.idle = unrefTimer(setTimeout(close, this.lingerMs));
      },
      () => {},
    );
  }
}

/**
 * A connection of the store's own: a `pg` Client with the pool's options (`pool.Client`, what the
 * pool makes its connections with), outside the pool; else one of the pool's, held until closed.
 */
async function connect(pool: Pool): Promise<Connection> {
  const made = pool as unknown as { Client?: new (options: unknown) => Client; options?: unknown };
  if (typeof made.Client === "function" && made.options !== undefined) {
    const client = new made.Client(made.options);
    const close = () => void client.end().catch(() => {});
    try {
      await client.connect();
    } catch (error) {
      close();
      throw error;
    }
    const socket = (client as unknown as { connection?: { stream?: Referable } }).connection?.stream;
    return { client, close, socket };
  }
  const client = await pool.connect();
  return { client, close: () => client.release(true), socket: undefined };
}

/** The store's channel: from its schema and table prefix (validated identifiers), within PostgreSQL's 63 bytes. */
export function postgresStopChannel(schema: string, tablePrefix: string): string {
  const name = `${tablePrefix}stop_${schema}`;
  if (name.length <= 63) return name;
  let hash = 0x811c9dc5;
  for (let index = 0; index < name.length; index++) hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
  return `${name.slice(0, 54)}_${(hash >>> 0).toString(16).padStart(8, "0")}`;
}
