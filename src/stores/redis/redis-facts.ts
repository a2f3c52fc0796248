// The facts of the Redis stores (ioredis and Upstash): a hash per scope, `<prefix>{e}:facts`
// (key → JSON fact), and the set of the scopes that hold facts, `<prefix>fact-scopes` (for export).
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { FencedFacts } from "../built-in-store-parts";
import type { Fact } from "../memory-store";
import { parseStoredJson } from "../stored-json";
import { redisFactScopesKey, redisSessionKeys } from "./redis-layout";
import { hashReply, integerReply, stringListReply } from "./redis-replies";
import { factScript, unfactScript } from "./redis-scripts";
import type { RedisSessionLocks } from "./redis-session-locks";
import type { RedisTransport } from "./redis-transport";

type Call = <T>(operation: string, sessionId: string | undefined, body: () => Promise<T>) => Promise<T>;

/** How a fact write reaches the script: the writer's lock key (none: not fenced in the script) and token ('' = none). */
interface ScriptFence {
  keys: string[];
  token: string;
}

/**
 * Reads and writes a Redis store's facts. A write naming its writer's session (a run's, through
 * `FencedFacts`) whose lock this store holds, or held until it was taken over, is fenced by that
 * lock whatever the fact's scope. The fact's key and the lock's are in different hash slots: on a
 * plain Redis and on Upstash, one script checks the lock's token and writes (atomic, as the
 * session writes are); on a Redis Cluster no script may touch two slots, so the token is read
 * (GET on the lock's slot) right before the write: a takeover in the one round trip between the
 * two is not seen. Refused: `SessionLockLostError`, nothing written. Without a writer, or a lock
 * held on its session, it is not fenced.
 */
export class RedisFacts implements FencedFacts {
  constructor(
    private readonly where: { store: string; transport: RedisTransport; prefix: string; ttl: string },
    private readonly call: Call,
    private readonly locks: Pick<RedisSessionLocks, "tokenOf">,
  ) {}

  async getFacts(scopeId: string): Promise<Fact[]> {
    const key = this.factsKey(scopeId);
    const raw = await this.call("getFacts", scopeId, async () =>
      hashReply(await this.where.transport.read("HGETALL", key, []), "the facts hash"),
    );
    const read = { store: this.where.store, operation: "getFacts", sessionId: scopeId };
    return Object.entries(raw).map(([name, text]) =>
      parseStoredJson<Fact>(text, { ...read, record: `fact "${name}"` }),
    );
  }

  async factScopes(): Promise<string[]> {
    const read = async () =>
      stringListReply(await this.where.transport.read("SMEMBERS", this.scopesKey, []), "the fact scopes");
    return (await this.call("factScopes", undefined, read)).sort();
  }

  async setFact(scopeId: string, fact: Fact, writer?: string): Promise<void> {
    const key = this.factsKey(scopeId);
    const operation = "setFact";
    const fence = await this.fence(operation, writer);
    // The scope enters an index set, so export can list the scopes (the store never SCANs): a
    // key of its own (another slot on a Cluster), sent with the fact's one-script write.
    const outcome = await this.call(operation, writer ?? scopeId, async () =>
      integerReply(
        await this.where.transport.writeScript(
          ["SADD", this.scopesKey, scopeId],
          factScript,
          [key, ...fence.keys],
          [fact.key, JSON.stringify(fact), this.where.ttl, fence.token],
        ),
        "the fact script's 1 or -1",
      ),
    );
    if (outcome === -1) throw this.lost(operation, writer!);
  }

  /** Resolves to whether the fact existed. */
  async deleteFact(scopeId: string, key: string, writer?: string): Promise<boolean> {
    const factsKey = this.factsKey(scopeId);
    const operation = "deleteFact";
    const fence = await this.fence(operation, writer);
    const { transport } = this.where;
    const deleted = await this.call(operation, writer ?? scopeId, async () =>
      fence.keys.length === 0
        ? integerReply(await transport.command(["HDEL", factsKey, key]), "HDEL's count")
        : integerReply(
            await transport.script(unfactScript, [factsKey, ...fence.keys], [key, fence.token]),
            "the unfact script's count or -1",
          ),
    );
    if (deleted === -1) throw this.lost(operation, writer!);
    return deleted > 0;
  }

  /**
   * The fence of a write of `writer`: its lock key and token for the script; on a Cluster, the
   * token checked now, by a GET on the lock's slot (refused when it is not this holder's), and
   * nothing for the script. Not fenced without a writer or a lock held on its session.
   */
  private async fence(operation: string, writer: string | undefined): Promise<ScriptFence> {
    const token = writer === undefined ? undefined : this.locks.tokenOf(writer);
    if (writer === undefined || token === undefined) return { keys: [], token: "" };
    const lock = redisSessionKeys(this.where.prefix, writer).lock;
    if (!this.where.transport.cluster) return { keys: [lock], token };
    const holder = await this.call(operation, writer, () => this.where.transport.read("GET", lock, []));
    if (holder !== token) throw this.lost(operation, writer);
    return { keys: [], token: "" };
  }

  private lost(operation: string, sessionId: string): SessionLockLostError {
    return new SessionLockLostError({ store: this.where.store, operation, sessionId });
  }

  private factsKey(scopeId: string): string {
    return redisSessionKeys(this.where.prefix, scopeId, "scopeId").facts;
  }

  private get scopesKey(): string {
    return redisFactScopesKey(this.where.prefix);
  }
}
