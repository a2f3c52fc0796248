import { noMessageLimits } from "../messages/message-limits";
import { AgentCoreError } from "../errors/agent-core-error";
import { errorText } from "../errors/error-text";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { MemoryProviderError } from "../errors/memory-provider-error";
import { parseAgentMessages, type AgentMessage } from "../messages/agent-message";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import { memoryContextKind, type MemoryContextKind } from "../providers/memory-context-kind";
import type { CompositeMemory } from "../providers/composite-memory";
import type { AnyMemoryProvider, MemoryRecord } from "../providers/memory-provider";
import type { AgentConfig } from "./agent-config";
import type { TurnRun } from "./turn-run";
import type { LoadedHistory } from "./session-history";

/** The system messages a memory read, by kind, rendered as data (system-prompt.ts). */
export interface ProvidedContext {
  summary: string | undefined;
  other: string | undefined;
}

/**
 * The history phase of an agent given a provider with `agent.memory(provider)`: the AgentLIB
 * document's lifecycle. Before the run, `read({ sessionId })` gives the conversation, which is
 * prepended to this run's messages (the store is not read or written for messages); after the
 * run, `write(conversation, { sessionId, agentName })` gets the whole conversation: the messages
 * read, then this run's (ids kept, so a provider that keeps what it already has, such as
 * `BufferMemory`, stores only the new ones, and one that overwrites, such as the document's
 * `RedisMemory`, keeps every turn). System messages are never written.
 *
 * What `read` returns is untrusted: messages are parsed (a bad one fails the run with a
 * `MemoryProviderError` naming it, never overwriting the conversation), the pairing rule is
 * restored in what the model sees, and system messages go into the system prompt as data, each
 * labelled for what it is: a summary the memory marked as one (memory-context-kind.ts) in the
 * summary block, any other in the memory-context block. Records (a recall provider given to
 * `.memory()`, or a `CompositeMemory`'s records turned into system messages) are rendered as
 * recalled memories. A failed read fails the run: running on no history would make
 * the write that follows overwrite the conversation.
 */
export class ProviderHistory {
  private written = false;

  private constructor(
    private readonly provider: AnyMemoryProvider | CompositeMemory,
    /** The messages read, as the provider gave them (system messages left out): what is written back. */
    private readonly read: AgentMessage[],
    /** What the model sees of them. */
    readonly history: LoadedHistory,
    /**
     * The text of the system messages read: `summary`, those the memory marked as a summary of
     * earlier turns (`SummarizingMemory`); `other`, the rest (context a memory of your own gave).
     */
    readonly context: ProvidedContext,
    readonly recalled: MemoryRecord[],
  ) {}

  static async load(config: AgentConfig, run: TurnRun): Promise<ProviderHistory> {
    const provider = config.historyProvider!;
    const fail = (message: string, cause?: unknown) =>
      new MemoryProviderError({ provider: provider.type, operation: "read", message, cause });
    let answer: unknown;
    try {
      answer = await provider.read({
        sessionId: run.sessionId,
        ...(run.userId ? { userId: run.userId } : {}),
        ...(run.abortSignal ? { abortSignal: run.abortSignal } : {}),
      });
    } catch (error) {
      if (run.abortSignal?.aborted || AgentCoreError.isInstance(error)) throw error;
      throw fail(`The ${provider.type} memory failed to read session "${run.sessionId}": ${errorText(error)}`, error);
    }
    if (!Array.isArray(answer))
      throw fail(
        `The ${provider.type} memory's read() must return an array of messages, got ${answer === null ? "null" : typeof answer}.`,
      );
    // Records (no role, a content) and system messages marked as recalled records are recalled
    // memories; everything else must be a message. A system message's kind says how it is labelled.
    const records: MemoryRecord[] = [];
    const candidates: unknown[] = [];
    const kinds: (MemoryContextKind | undefined)[] = [];
    for (const item of answer) {
      const kind = memoryContextKind(item);
      if (isObject(item) && typeof item.content === "string" && (!("role" in item) || kind === "recalled"))
        records.push((kind === "recalled" ? { id: item.id, content: item.content } : item) as unknown as MemoryRecord);
      else {
        candidates.push(item);
        kinds.push(kind);
      }
    }
    let messages: AgentMessage[];
    try {
      messages = parseAgentMessages(candidates, {
        source: `The history the ${provider.type} memory read`,
        limits: noMessageLimits,
      });
    } catch (error) {
      if (!InvalidMessageError.isInstance(error)) throw error;
      throw fail(
        `The ${provider.type} memory read a bad message for session "${run.sessionId}": ${error.message}`,
        error,
      );
    }
    const systemText = (kind: MemoryContextKind | undefined) =>
      messages
        .filter((message, index) => message.role === "system" && (kinds[index] === "summary") === (kind === "summary"))
        .map((message) => (message.content as string).trim())
        .filter(Boolean)
        .join("\n\n") || undefined;
    const read = messages.filter((message) => message.role !== "system");
    // The model's view starts at a user message and keeps the pairing rule.
    const firstUser = read.findIndex((message) => message.role === "user");
    const sent = repairToolPairing(firstUser === -1 ? [] : read.slice(firstUser)).messages;
    const context = { summary: systemText("summary"), other: systemText(undefined) };
    const recalled = records.map((record, index) => ({
      ...record,
      id: typeof record.id === "string" ? record.id : `${provider.type}-${index}`,
    }));
    return new ProviderHistory(provider, read, { messages: sent, offset: 0, partial: false }, context, recalled);
  }

  /** Writes the conversation (the messages read, then `turn`) to the provider, once, and tells `memory:write`. */
  async persist(config: AgentConfig, run: TurnRun, turn: readonly AgentMessage[]): Promise<void> {
    if (this.written || turn.length === 0) return;
    this.written = true;
    const provider = this.provider;
    try {
      await provider.write([...this.read, ...turn], {
        sessionId: run.sessionId,
        ...(run.userId ? { userId: run.userId } : {}),
        ...(config.name ? { agentName: config.name } : {}),
      });
    } catch (error) {
      if (AgentCoreError.isInstance(error)) throw error;
      throw new MemoryProviderError({
        provider: provider.type,
        operation: "write",
        message: `The ${provider.type} memory failed to write session "${run.sessionId}": ${errorText(error)}`,
        cause: error,
      });
    }
    run.notifier.notify({ type: "memory:write", messages: [...turn], messageIds: turn.map((message) => message.id!) });
  }

  /** `persist` for a run that is failing: what the run completed is written, a failure reported (`memory:error`), not thrown. */
  async persistOrReport(config: AgentConfig, run: TurnRun, turn: readonly AgentMessage[]): Promise<void> {
    try {
      await this.persist(config, run, turn);
    } catch (error) {
      run.notifier.notify({ type: "memory:error", source: this.provider.type, operation: "write", error });
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}
