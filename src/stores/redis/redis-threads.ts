// The thread capabilities of the Redis stores (docs/threads.md) beside the turn's writes: message
// ranges, the usage ledger's reads and the Cluster's writes to a user's totals, generated titles, and
// the preview a cut leaves to compute. Shared by RedisMemoryStore and UpstashRedisMemoryStore.
import { SessionLockLostError } from "../../errors/session-lock-lost-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateSessionId } from "../../messages/session-id";
import { checkTitle } from "../session-metadata";
import { previewOf } from "../session-preview";
import { messageRange } from "../tail-limit";
import { checkUsageQuery, type UsageQuery, type UsageTotals, type UserDataDeletion } from "../usage-totals";
import { fencedScriptKeys, type RedisSessionKeys } from "./redis-layout";
import { parseRedisMessages } from "./redis-message-tail";
import { addUserUsage, ledgerArguments, readUserUsage, sessionTotals } from "./redis-ledger";
import {
  type CutOutcome,
  hashReply,
  integerReply,
  stringListReply,
  titleReply,
  UnexpectedReplyError,
} from "./redis-replies";
import { previewScript, titleScript } from "./redis-scripts";
import type { RedisSessionIndex } from "./redis-session-index";
import type { RedisTransport } from "./redis-transport";
import { deleteRedisUserData } from "./redis-user-data";
import type { RedisUserSessions } from "./redis-user-sessions";

type Call = <T>(operation: string, sessionId: string | undefined, body: () => Promise<T>) => Promise<T>;

/** What the thread capabilities need of their store. */
export interface RedisThreadsSetup {
  store: string;
  transport: RedisTransport;
  ttl: string;
  call: Call;
  keys: (sessionId: string) => RedisSessionKeys;
  /** The lock token this instance holds on a session ('' = none: not fenced). */
  tokenOf: (sessionId: string) => string;
  prefix: string;
  users: RedisUserSessions;
  index: RedisSessionIndex;
}

/** How many messages a preview search reads at a time past the cut's tail. */
const PREVIEW_WALK = 100;

export class RedisThreads {
  constructor(private readonly setup: RedisThreadsSetup) {}

  /** `getMessageRange`: one LRANGE of the positions asked. */
  async getMessageRange(sessionId: string, start: number, end: number): Promise<AgentMessage[]> {
    const range = messageRange(start, end, this.setup.store);
    const key = this.setup.keys(sessionId).messages;
    if (range.end === range.start) return [];
    const raw = await this.setup.call("getMessageRange", sessionId, async () =>
      stringListReply(
        await this.setup.transport.read("LRANGE", key, [range.start, range.end - 1]),
        "the messages list",
      ),
    );
    return parseRedisMessages(raw, range.start, { store: this.setup.store, operation: "getMessageRange", sessionId });
  }

  /** `getUsage`: a session's totals (its meta hash), or a user's (their running or daily totals). */
  async getUsage(query: UsageQuery): Promise<UsageTotals> {
    checkUsageQuery(query);
    const { call, transport } = this.setup;
    if ("sessionId" in query) {
      const meta = this.setup.keys(query.sessionId).meta;
      return await call("getUsage", query.sessionId, async () =>
        sessionTotals(hashReply(await transport.read("HGETALL", meta, []), "the session's metadata")),
      );
    }
    const base = this.setup.users.baseOf(validateSessionId(query.userId, "userId"));
    return await call("getUsage", undefined, () => readUserUsage(transport, base, query.since));
  }

  /** `deleteUserData` (redis-user-data.ts). */
  async deleteUserData(userId: string): Promise<UserDataDeletion> {
    validateSessionId(userId, "userId");
    return deleteRedisUserData(this.setup, this.setup.call, userId);
  }

  /** The `titleSession` part: the title set on a session that exists and has none, its usage added in the same script. */
  async titleSession(sessionId: string, title: string, usage: UsageTotals | undefined): Promise<boolean> {
    const checked = checkTitle(title);
    const operation = "updateSession";
    const now = Date.now();
    const user = usage && this.setup.users.ledgerTarget(sessionId);
    const ledger = ledgerArguments(usage, undefined, now, `${this.setup.store}.titleSession`, user?.owner);
    const keys = [...fencedScriptKeys(this.setup.keys(sessionId)), ...(user?.keys ?? [])];
    const args = [String(now), this.setup.ttl, this.setup.tokenOf(sessionId), checked, ...ledger];
    const outcome = await this.setup.call(operation, sessionId, async () =>
      titleReply(await this.setup.transport.script(titleScript, keys, args)),
    );
    if (outcome === "lost") throw new SessionLockLostError({ store: this.setup.store, operation, sessionId });
    await this.spent(operation, sessionId, outcome.spentBy, ledger);
    return outcome.written;
  }

  /**
   * After a session script that added usage it could not add to its owner's totals (a Cluster: the
   * user's keys are in another slot; or an owner this store did not know), adds it there: an ordered write, not atomic with the script (a
   * crash in between leaves the session's totals counted and the user's not).
   */
  async spent(operation: string, sessionId: string, owner: string | undefined, ledger: string[]): Promise<void> {
    if (owner === undefined) return;
    this.setup.users.remember(sessionId, owner); // its next write reaches the owner's totals itself (not on a Cluster)
    const base = this.setup.users.baseOf(owner);
    await this.setup.call(operation, sessionId, () => addUserUsage(this.setup.transport, base, ledger));
  }

  /**
   * After a cut whose new messages have no text: the preview of what is left, from the tail the cut
   * script returned (reading further back only while no message has text), set by a second script
   * unless the session was written since (then that write set its own).
   */
  async previewAfterCut(sessionId: string, cut: CutOutcome): Promise<void> {
    const operation = "deleteMessagesFrom";
    const where = { store: this.setup.store, operation, sessionId };
    const parse = (raw: string[], first: number) => parseRedisMessages(raw, first, where);
    const keys = this.setup.keys(sessionId);
    let first = cut.length - cut.tail.length;
    let preview = previewOf(parse(cut.tail, first));
    while (preview === undefined && first > 0) {
      const from = Math.max(0, first - PREVIEW_WALK);
      const raw = await this.setup.call(operation, sessionId, async () =>
        stringListReply(await this.setup.transport.read("LRANGE", keys.messages, [from, first - 1]), "the messages"),
      );
      preview = previewOf(parse(raw, from));
      first = from;
    }
    const args = [String(Date.now()), this.setup.ttl, this.setup.tokenOf(sessionId), String(cut.length), preview ?? ""];
    // Skipped (0) when the session was written since; a lost lock (-1) leaves the preview to the new
    // holder's writes (the cut itself was fenced).
    const what = "the preview script's 1, 0 or -1";
    await this.setup.call(operation, sessionId, async () => {
      const reply = await this.setup.transport.script(previewScript, fencedScriptKeys(keys), args);
      if (![1, 0, -1].includes(integerReply(reply, what))) throw new UnexpectedReplyError(what, reply);
    });
  }
}
