import { markMemoryContext } from "../providers/memory-context-kind";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { matchesMemoryFilter, tagList, tagRecord } from "../providers/memory-metadata";
import type { MemoryReadOptions, MemoryScope, MemoryWriteOptions } from "../providers/memory-provider";
import type { ModelMessage, StoredMemoryEntry } from "../providers/memory-provider";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore, SessionEntry } from "../stores/memory-store";
import { backendOf } from "../stores/backend-of";
import type { StoreBackend } from "../stores/store-backend";
import { estimateMessagesTokens, loadTokenizer } from "../tokens/estimate-tokens";
import { withTokenizer } from "../tokens/with-tokenizer";
import type { MemoryStrategyResult } from "./memory-strategy";

/** The session a read or write without a `sessionId` uses, as in the AgentLIB document. */
export const DEFAULT_MEMORY_SESSION = "default";

/** Fits a session's stored history into the window the memory sends (its strategy's `apply`). */
export type WindowFn = (
  history: readonly AgentMessage[],
  sessionId: string,
  store: MemoryStore,
) => MemoryStrategyResult | Promise<MemoryStrategyResult>;

/**
 * The storage behind the AgentLIB read/write contract of the conversation memories (`BufferMemory`,
 * `SlidingWindowMemory`, `SummarizingMemory`). Everything written is kept (nothing is trimmed
 * away on write); the memory's own window is applied on read. System messages are never stored.
 * A message already stored (same id, e.g. history returned by `read` and written back with the new
 * turn) is not stored again; new messages get an id and a timestamp. The store is used through its
 * backend (`backendOf`): an atomic append where it has one, failures as `StoreError`s.
 */
export class ConversationStorage {
  readonly store: MemoryStore;
  private readonly adapted: StoreBackend;
  private readonly window: WindowFn;
  /** Last read or write per session, and sessions written through a store that cannot list them. */
  private readonly seen = new Map<
    string,
    { createdAt: number; accessedAt: number; agentName?: string; tags: string[] }
  >();

  constructor(store: MemoryStore | undefined, window: WindowFn) {
    if (
      store !== undefined &&
      (typeof store !== "object" ||
        store === null ||
        typeof store.getMessages !== "function" ||
        typeof store.setMessages !== "function")
    ) {
      throw new InvalidArgumentError({
        argument: "store",
        message: "store must be a MemoryStore (getMessages, setMessages, clearMessages, …).",
      });
    }
    this.store = store ?? new InMemoryStore();
    this.adapted = backendOf(this.store);
    this.window = window;
  }

  async read(options: MemoryReadOptions = {}): Promise<ModelMessage[]> {
    const sessionId = sessionOf(options.sessionId);
    const limit = options.limit;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
      throw new InvalidArgumentError({
        argument: "limit",
        value: limit,
        message: "limit must be a whole number of 0 or more.",
      });
    }
    const wanted = tagList(options.tags);
    const history = await this.adapted.getMessages(sessionId);
    if (history.length === 0) return [];
    if (wanted.length && !matchesMemoryFilter({ tags: (await this.session(sessionId))?.tags ?? [] }, { tags: wanted }))
      return [];
    this.touch(sessionId);
    const window = await withTokenizer(() => this.window(history, sessionId, this.store));
    const messages = [
      ...(window.summary ? [markMemoryContext({ role: "system" as const, content: window.summary }, "summary")] : []),
      ...window.messages,
    ];
    return limit === undefined ? messages : tail(messages, limit);
  }

  async write(messages: ModelMessage[], options: MemoryWriteOptions = {}): Promise<void> {
    if (!Array.isArray(messages))
      throw new InvalidArgumentError({
        argument: "messages",
        value: messages,
        message: "write() takes an array of messages.",
      });
    const sessionId = sessionOf(options.sessionId);
    const tags = tagList(options.tags);
    const now = Date.now();
    // Ids already stored are skipped by the append itself (idempotent by id, natively or in the fallback backend).
    const fresh = messages
      .filter((message) => message.role !== "system")
      .map(
        (message) =>
          ({
            ...message,
            id: message.id ?? globalThis.crypto.randomUUID(),
            timestamp: message.timestamp ?? now,
          }) as AgentMessage,
      );
    await this.adapted.exclusive(sessionId, async () => {
      await this.adapted.appendMessages(sessionId, fresh);
      const previous = (await this.session(sessionId))?.tags ?? [];
      const merged = tagList({ ...tagRecord(previous), ...tagRecord(tags) });
      const own = this.seen.get(sessionId);
      this.seen.set(sessionId, {
        createdAt: own?.createdAt ?? now,
        accessedAt: now,
        ...((options.agentName ?? own?.agentName) ? { agentName: options.agentName ?? own?.agentName } : {}),
        tags: merged,
      });
      if (options.agentName || tags.length) {
        await this.adapted.updateSession(sessionId, {
          ...(options.agentName ? { agentName: options.agentName } : {}),
          tags: merged,
        });
      }
    });
  }

  async clear(given?: string | MemoryScope): Promise<void> {
    const sessionId = typeof given === "string" ? given : given?.sessionId;
    const sessions =
      sessionId !== undefined ? [sessionId] : (await this.sessions()).map((session) => session.sessionId);
    for (const id of sessions) {
      await this.adapted.exclusive(id, () => this.adapted.clearMessages(id));
      this.seen.delete(id);
    }
  }

  async entries(given?: string | MemoryScope): Promise<StoredMemoryEntry[]> {
    const sessionId = typeof given === "string" ? given : given?.sessionId;
    const entries: StoredMemoryEntry[] = [];
    await loadTokenizer(); // for tokenCount; a no-op once loaded
    for (const session of await this.sessions()) {
      if (sessionId !== undefined && session.sessionId !== sessionId) continue;
      const messages = await this.adapted.getMessages(session.sessionId);
      if (messages.length === 0) continue;
      const tags = session.tags ?? [];
      entries.push({
        id: session.sessionId,
        sessionId: session.sessionId,
        messages,
        metadata: {
          createdAt: new Date(session.createdAt),
          accessedAt: new Date(Math.max(session.accessedAt, this.seen.get(session.sessionId)?.accessedAt ?? 0)),
          ...(session.agentName ? { agentName: session.agentName } : {}),
          ...(tags.length ? { tags: tagRecord(tags) } : {}),
          tokenCount: estimateMessagesTokens(messages),
        },
      });
    }
    return entries;
  }

  /** Sessions the store lists (with their metadata), or those written through this memory when it cannot list them. */
  private async sessions(): Promise<SessionEntry[]> {
    if (this.adapted.capabilities.entries) return this.adapted.entries();
    return [...this.seen].map(([sessionId, own]) => ({ sessionId, messageCount: 0, ...own }));
  }

  private async session(sessionId: string): Promise<{ tags: string[] } | undefined> {
    const stored = await this.adapted.getSession(sessionId);
    if (stored) return { tags: stored.tags ?? [] };
    return this.seen.get(sessionId);
  }

  private touch(sessionId: string): void {
    const own = this.seen.get(sessionId);
    const now = Date.now();
    this.seen.set(sessionId, own ? { ...own, accessedAt: now } : { createdAt: now, accessedAt: now, tags: [] });
  }
}

function sessionOf(sessionId: string | undefined): string {
  if (sessionId === undefined) return DEFAULT_MEMORY_SESSION;
  if (typeof sessionId !== "string" || sessionId === "") {
    throw new InvalidArgumentError({
      argument: "sessionId",
      value: sessionId,
      message: "sessionId must be a non-empty string.",
    });
  }
  return sessionId;
}

/** The last `limit` messages, never starting with a tool result whose call was cut off. */
function tail(messages: ModelMessage[], limit: number): ModelMessage[] {
  if (limit === 0) return [];
  const cut = messages.slice(-limit);
  let start = 0;
  while (start < cut.length && cut[start]!.role === "tool") start++;
  return cut.slice(start);
}
