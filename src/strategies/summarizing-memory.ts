import { integerOption } from "../errors/check-option";
import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../models/language-model";
import { resolveModelOption } from "../models/registry/model-registry";
import type { MemoryStore } from "../stores/memory-store";
import { attachStorage, withConversationMemory } from "./conversation-memory";
import { ConversationStorage } from "./conversation-storage";
import { SummaryMemory } from "./summary-memory";
import type { WindowBehaviourOptions } from "./window-options";

export interface SummarizingMemoryOptions extends WindowBehaviourOptions {
  /** Messages kept verbatim after the summary. @default 10 */
  recentMessages?: number;
  /**
   * The model that writes summaries: a `"provider/model"` string (e.g. `"openai/gpt-4o-mini"`,
   * resolved like the agent's `model`), a `LanguageModel` or an AI SDK provider's model.
   * @default the agent's model
   */
  summaryModel?: string | LanguageModel | AISDKLanguageModel;
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
export class SummarizingMemory extends withConversationMemory(SummaryMemory) {
  override readonly name: string = "summarizing";

  constructor(options: SummarizingMemoryOptions = {}) {
    const recentMessages = integerOption(options.recentMessages, "recentMessages", 10)!;
    const summarizeEvery = integerOption(options.summarizeEvery, "summarizeEvery", 10)!;
    const { summaryModel, summarizeEvery: _every, store, ...rest } = options;
    super({
      ...rest,
      recentMessages,
      summarizeThreshold: recentMessages + summarizeEvery,
      ...(summaryModel === undefined ? {} : { model: resolveModelOption(summaryModel, "summaryModel") }),
    });
    attachStorage(
      this,
      new ConversationStorage(store, (history, sessionId, backing) =>
        this.apply(history, { sessionId, store: backing }),
      ),
    );
  }
}
