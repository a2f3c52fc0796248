import { integerOption } from "../errors/check-option";
import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../models/language-model";
import type {
  MemoryReadOptions,
  MemoryScope,
  MemoryWriteOptions,
  ModelMessage,
  StoredMemoryEntry,
} from "../providers/memory-provider";
import type { MemoryStore } from "../stores/memory-store";
import { ConversationStorage } from "./conversation-storage";
import { SummaryMemory } from "./summary-memory";
import type { WindowBehaviourOptions } from "./window-options";

export interface SummarizingMemoryOptions extends WindowBehaviourOptions {
  /** Messages kept verbatim after the summary. @default 10 */
  recentMessages?: number;
  /** The model that writes summaries: a `LanguageModel` or an AI SDK provider's model. @default the agent's model */
  summaryModel?: LanguageModel | AISDKLanguageModel;
  /** Extend the summary once this many messages have gathered beyond `recentMessages`. @default 10 */
  summarizeEvery?: number;
  /** Longest summary accepted, in tokens. @default 600 */
  maxSummaryTokens?: number;
  /** Token budget of the messages sent after the summary. @default 4000 */
  maxTokens?: number;
  /** How long the summariser may take. @default 30000 */
  timeoutMs?: number;
  /** Where `write` keeps conversations when the memory is used on its own (AgentLIB's API). @default new InMemoryStore() */
  store?: MemoryStore;
}

/**
 * The second design's summarising memory (docs/architecture.md): a thin view of `SummaryMemory`
 * with `summarizeThreshold = recentMessages + summarizeEvery`.
 */
export class SummarizingMemory extends SummaryMemory {
  override readonly name: string = "summarizing";

  constructor(options: SummarizingMemoryOptions = {}) {
    const recentMessages = integerOption(options.recentMessages, "recentMessages", 10)!;
    const summarizeEvery = integerOption(options.summarizeEvery, "summarizeEvery", 10)!;
    const { summaryModel, summarizeEvery: _every, store, ...rest } = options;
    super({
      ...rest,
      recentMessages,
      summarizeThreshold: recentMessages + summarizeEvery,
      ...(summaryModel ? { model: summaryModel } : {}),
    });
    this.storage = new ConversationStorage(store, (history, sessionId, backing) =>
      this.apply(history, { sessionId, store: backing }),
    );
  }

  private readonly storage: ConversationStorage;

  /** The provider type (AgentLIB's `MemoryProvider.type`). */
  get type(): string {
    return this.name;
  }

  /** The session's conversation (AgentLIB's `read`): a summary of older turns as a system message, then the recent ones. */
  read(options: MemoryReadOptions = {}): Promise<ModelMessage[]> {
    return this.storage.read(options);
  }

  /** Stores the messages of a run (AgentLIB's `write`); system messages and messages already stored are skipped. */
  write(messages: ModelMessage[], options: MemoryWriteOptions = {}): Promise<void> {
    return this.storage.write(messages, options);
  }

  /** Forgets one session's conversation (and keeps its summaries out of later reads), or every session's. */
  clear(sessionId?: string | MemoryScope): Promise<void> {
    return this.storage.clear(sessionId);
  }

  /** The stored conversations, one entry per session, with their metadata. */
  entries(sessionId?: string | MemoryScope): Promise<StoredMemoryEntry[]> {
    return this.storage.entries(sessionId);
  }
}
