import { errorText } from "../errors/error-text";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { AgentMessage } from "../messages/agent-message";
import type {
  AnyMemoryProvider,
  MemoryEntry,
  MemoryRecord,
  MemoryRecordEntry,
  MemoryScope,
  MessageMemoryProvider,
  ModelMessage,
  RecallMemoryProvider,
  RecallReadOptions,
  RecallWriteOptions,
} from "./memory-provider";
import { markMemoryContext } from "./memory-context-kind";
import { normaliseContent } from "./normalise-content";
import { withTimeout } from "./with-timeout";

/** A provider of a `CompositeMemory`, with its own timeout. */
export interface CompositeMemoryMember<P extends AnyMemoryProvider = AnyMemoryProvider> {
  provider: P;
  /** Milliseconds this provider may take per call. @default the composite's `timeoutMs` */
  timeoutMs?: number;
}

/** One entry of `providers`: a provider, or a provider with its own timeout. */
export type CompositeMemoryProvider = AnyMemoryProvider | CompositeMemoryMember;

export interface CompositeMemoryOptions<M extends CompositeMemoryProvider = CompositeMemoryProvider> {
  /** Providers in priority order: a provider, or `{ provider, timeoutMs }`. */
  providers: M[];
  /**
   * - `"interleave"`: the first record of each provider, then the second of each, …
   * - `"concat"`: every record of the first provider, then of the second, …
   * - `"priority"`: only the records of the first provider (in order) that answered with any;
   *   the others are fallbacks for when it fails, times out or has nothing.
   * @default "interleave"
   */
  mergeStrategy?: "interleave" | "concat" | "priority";
  /** Milliseconds each provider may take per call, unless it has its own. @default 2000 */
  timeoutMs?: number;
  /** Records a read returns when it gives no `limit`. @default 5 */
  limit?: number;
  /** Called when one provider fails or times out (the others still answer). @default none */
  onError?: (error: unknown, context: { provider: string; operation: string }) => void;
}

/** The providers of `providers` entries `M`. */
type ProviderOf<M extends CompositeMemoryProvider> = M extends CompositeMemoryMember<infer P> ? P : M;

/** What a `CompositeMemory` of providers `M` reads: records when all are recall providers, else messages. */
export type CompositeMemoryItem<M extends CompositeMemoryProvider> = [ProviderOf<M>] extends [RecallMemoryProvider]
  ? MemoryRecord
  : ModelMessage;

/** What a `CompositeMemory` of providers `M` lists: each provider's entries. */
export type CompositeMemoryEntry<M extends CompositeMemoryProvider> = [ProviderOf<M>] extends [RecallMemoryProvider]
  ? MemoryRecordEntry
  : [ProviderOf<M>] extends [MessageMemoryProvider]
    ? MemoryEntry
    : MemoryEntry | MemoryRecordEntry;

/** Composites with a conversation memory among their providers (see `holdsConversationMemory`). */
const withConversation = new WeakSet<object>();

/**
 * Whether `provider` is a `CompositeMemory` with a conversation memory (a `BufferMemory` or
 * another strategy with read/write: its read gives messages) among its providers, at any depth.
 * Such a composite is an agent's history (`agent.memory()`), not a recall provider. Internal.
 */
export function holdsConversationMemory(provider: unknown): boolean {
  return typeof provider === "object" && provider !== null && withConversation.has(provider);
}

/**
 * Several memory providers behind one (itself a provider: of records when all its providers are recall providers, else of messages): reads ask every provider at
 * once, each under its own timeout, then merge and de-duplicate (same id, same source message or
 * same normalised content); writes go to all. A failing provider is skipped (and reported to
 * `onError`); only when every provider fails does the call fail, so the agent emits `memory:error`.
 */
export class CompositeMemory<M extends CompositeMemoryProvider = CompositeMemoryProvider> {
  readonly type = "composite";
  private readonly members: { provider: RecallMemoryProvider; timeoutMs: number }[];
  private readonly mergeStrategy: "interleave" | "concat" | "priority";
  private readonly limit: number;
  private readonly onError: CompositeMemoryOptions["onError"];

  constructor(options: CompositeMemoryOptions<M>) {
    if (!options || !Array.isArray(options.providers) || options.providers.length === 0) {
      throw new InvalidArgumentError({
        argument: "providers",
        message: "CompositeMemory needs `providers`: a non-empty array of memory providers.",
      });
    }
    const timeoutMs = options.timeoutMs ?? 2000;
    this.members = options.providers.map((member, index) => {
      const provider =
        "provider" in member && typeof (member as CompositeMemoryMember).provider?.read === "function"
          ? (member as CompositeMemoryMember).provider
          : (member as AnyMemoryProvider);
      if (!provider || typeof provider.read !== "function" || typeof provider.write !== "function") {
        throw new InvalidArgumentError({
          argument: `providers[${index}]`,
          message: `providers[${index}] is not a memory provider (it needs read and write).`,
        });
      }
      const ms = ("provider" in member ? (member as CompositeMemoryMember).timeoutMs : undefined) ?? timeoutMs;
      if (!Number.isFinite(ms) || ms <= 0) {
        throw new InvalidArgumentError({
          argument: `providers[${index}].timeoutMs`,
          value: ms,
          message: "timeoutMs must be a positive number of milliseconds.",
        });
      }
      return { provider: provider as RecallMemoryProvider, timeoutMs: ms };
    });
    this.mergeStrategy = options.mergeStrategy ?? "interleave";
    if (!["interleave", "concat", "priority"].includes(this.mergeStrategy)) {
      throw new InvalidArgumentError({
        argument: "mergeStrategy",
        value: options.mergeStrategy,
        message: 'mergeStrategy must be "interleave", "concat" or "priority".',
      });
    }
    this.limit = options.limit ?? 5;
    this.onError = options.onError;
    if (this.members.some(({ provider }) => isMessageMemory(provider))) withConversation.add(this);
  }

  /**
   * Asks every provider. When a provider answers with messages (a conversation memory such as
   * `BufferMemory`), the answer is messages: each provider's turns merged by `mergeStrategy`
   * (records of recall providers become system messages), duplicates by id dropped, and `limit`
   * (when given) the most recent ones. Otherwise the answer is records, merged as described above.
   * Typed by the providers given: `MemoryRecord[]` when all are recall providers, else `ModelMessage[]`.
   */
  async read(options: RecallReadOptions = {}): Promise<CompositeMemoryItem<M>[]> {
    const limit = options.limit ?? this.limit;
    const lists = await this.each(
      "read",
      (provider, signal) =>
        (provider as { read(options: RecallReadOptions): Promise<unknown[]> }).read({
          ...options,
          ...(options.limit === undefined && isMessageMemory(provider) ? {} : { limit }),
          abortSignal: signal,
        }),
      options.abortSignal,
    );
    if (
      this.members.some((member) => isMessageMemory(member.provider)) ||
      lists.some((list) => Array.isArray(list) && list.length > 0 && list.every(isMessage))
    ) {
      return mergeMessages(lists, this.mergeStrategy, options.limit) as CompositeMemoryItem<M>[];
    }
    const answered = lists.map((list) => (Array.isArray(list) ? list.filter(isRecord) : undefined));
    let ordered: { record: MemoryRecord; provider: string }[];
    if (this.mergeStrategy === "priority") {
      const index = answered.findIndex((list) => list !== undefined && list.length > 0);
      ordered =
        index === -1
          ? []
          : answered[index]!.map((record) => ({ record, provider: this.members[index]!.provider.type }));
    } else if (this.mergeStrategy === "concat") {
      ordered = answered.flatMap((list, index) =>
        (list ?? []).map((record) => ({ record, provider: this.members[index]!.provider.type })),
      );
    } else {
      ordered = [];
      const longest = Math.max(0, ...answered.map((list) => list?.length ?? 0));
      for (let rank = 0; rank < longest; rank++) {
        answered.forEach((list, index) => {
          const record = list?.[rank];
          if (record) ordered.push({ record, provider: this.members[index]!.provider.type });
        });
      }
    }
    const seenIds = new Set<string>();
    const seenContent = new Set<string>();
    const merged: MemoryRecord[] = [];
    for (const { record, provider } of ordered) {
      if (merged.length >= limit) break;
      const keys = [`id:${record.id}`, ...(record.messageId ? [`message:${record.messageId}`] : [])];
      const content = normaliseContent(record.content);
      if (keys.some((key) => seenIds.has(key)) || seenContent.has(content)) continue;
      for (const key of keys) seenIds.add(key);
      seenContent.add(content);
      merged.push({ ...record, metadata: { ...record.metadata, provider } });
    }
    return merged as CompositeMemoryItem<M>[];
  }

  async write(messages: AgentMessage[], options: RecallWriteOptions = {}): Promise<void> {
    await this.each(
      "write",
      (provider, signal) => provider.write(messages, { ...options, abortSignal: signal }),
      options.abortSignal,
    );
  }

  async clear(options?: MemoryScope | string): Promise<void> {
    await this.each("clear", (provider) => (provider.clear ? provider.clear(options) : Promise.resolve()));
  }

  /** Every provider's entries: records, and conversations (`{ id, sessionId, messages, metadata }`) from conversation memories. */
  async entries(options?: MemoryScope | string): Promise<CompositeMemoryEntry<M>[]> {
    const lists = await this.each("entries", (provider) =>
      provider.entries ? provider.entries(options) : Promise.resolve([]),
    );
    return lists.flatMap((list) => (Array.isArray(list) ? list : [])) as CompositeMemoryEntry<M>[];
  }

  /** Runs one operation on every provider at once; undefined for those that failed. Throws only when all failed. */
  private async each<T>(
    operation: string,
    call: (provider: RecallMemoryProvider, signal: AbortSignal) => Promise<T>,
    parent?: AbortSignal,
  ): Promise<(T | undefined)[]> {
    const settled = await Promise.allSettled(
      this.members.map((member) =>
        withTimeout((signal) => call(member.provider, signal), {
          ms: member.timeoutMs,
          provider: member.provider.type,
          operation,
          ...(parent ? { parent } : {}),
        }),
      ),
    );
    parent?.throwIfAborted();
    const failures: unknown[] = [];
    const results = settled.map((outcome, index) => {
      if (outcome.status === "fulfilled") return outcome.value;
      failures.push(outcome.reason);
      try {
        this.onError?.(outcome.reason, { provider: this.members[index]!.provider.type, operation });
      } catch {
        // A failing error listener must not fail the read.
      }
      return undefined;
    });
    // A member that cannot work here at all (an optional package not installed) is a setup error: thrown, never skipped.
    const unsupported = failures.find((failure) => UnsupportedRuntimeError.isInstance(failure));
    if (unsupported) throw unsupported;
    if (failures.length === this.members.length) {
      throw new MemoryProviderError({
        provider: this.type,
        operation,
        message: `Every provider of the CompositeMemory failed to ${operation}: ${failures.map((failure) => errorText(failure)).join("; ")}`,
        cause: new AggregateError(failures),
      });
    }
    return results;
  }
}

function isRecord(record: unknown): record is MemoryRecord {
  return (
    typeof record === "object" &&
    record !== null &&
    typeof (record as MemoryRecord).id === "string" &&
    typeof (record as MemoryRecord).content === "string"
  );
}

function isMessage(item: unknown): item is AgentMessage {
  return (
    typeof item === "object" &&
    item !== null &&
    typeof (item as AgentMessage).role === "string" &&
    (typeof (item as AgentMessage).content === "string" || Array.isArray((item as AgentMessage).content))
  );
}

/** A conversation memory (a strategy with read/write), or a composite holding one: its read gives messages. */
function isMessageMemory(provider: unknown): boolean {
  return typeof (provider as { apply?: unknown }).apply === "function" || holdsConversationMemory(provider);
}

/** Each answer as units that stay together: a conversation's turns, or one system message per record. */
function units(list: unknown): AgentMessage[][] {
  if (!Array.isArray(list) || list.length === 0) return [];
  if (!list.every(isMessage))
    return list
      .filter(isRecord)
      .map((record) => [markMemoryContext({ role: "system", content: record.content }, "recalled")]);
  const turns: AgentMessage[][] = [];
  for (const message of list) {
    if (message.role === "user" || message.role === "system" || turns.length === 0) turns.push([message]);
    else turns.at(-1)!.push(message);
  }
  return turns;
}

function mergeMessages(
  lists: unknown[],
  strategy: "interleave" | "concat" | "priority",
  limit: number | undefined,
): AgentMessage[] {
  const answered = lists.map(units);
  let ordered: AgentMessage[][];
  if (strategy === "priority") ordered = answered.find((list) => list.length > 0) ?? [];
  else if (strategy === "concat") ordered = answered.flat();
  else {
    ordered = [];
    const longest = Math.max(0, ...answered.map((list) => list.length));
    for (let rank = 0; rank < longest; rank++) for (const list of answered) if (list[rank]) ordered.push(list[rank]!);
  }
  const seen = new Set<string>();
  const merged = ordered.flat().filter((message) => {
    if (message.id === undefined) return true;
    if (seen.has(message.id)) return false;
    seen.add(message.id);
    return true;
  });
  if (limit === undefined) return merged;
  let start = Math.max(0, merged.length - limit);
  while (start < merged.length && merged[start]!.role === "tool") start++;
  return merged.slice(start);
}
