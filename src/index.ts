// The public surface of agentcore. Named exports only; everything else is internal.

export { Agent } from "./agent/agent";
export type { AgentOptions, AgentRunOptions } from "./agent/agent-options";
export type { AgentResult, AgentStreamPart, StepResult, ToolResult } from "./agent/agent-result";
export { AgentStream } from "./agent/agent-stream";
export type { AgentEventListener, AgentEventMap, AgentEventName } from "./agent/agent-events";

export {
  AgentCoreError,
  AbortError,
  InvalidArgumentError,
  InvalidMessageError,
  NoSuchProviderError,
  SessionBusyError,
  StoreError,
  CorruptStoreError,
  type MessageIssue,
} from "./errors";

export {
  agentMessageSchema,
  parseAgentMessages,
  toolCallSchema,
  type AgentMessage,
  type AssistantMessage,
  type StoredMessage,
  type SystemMessage,
  type ToolCall,
  type ToolMessage,
  type UserMessage,
} from "./messages/agent-message";
export { assertToolPairing, findToolPairingIssues, isToolPairingValid } from "./messages/validate-tool-pairing";
export { MISSING_TOOL_RESULT_CONTENT, repairToolPairing, type RepairToolPairingResult } from "./messages/repair-tool-pairing";

export type {
  FinishReason,
  LanguageModel,
  LanguageModelCall,
  LanguageModelFactory,
  LanguageModelResult,
  LanguageModelStreamPart,
  LanguageModelUsage,
  ToolDefinition,
} from "./models/language-model";
export { listProviders, registerProvider, resolveLanguageModel, unregisterProvider } from "./models/model-registry";

export { tool, type Tool, type ToolExecutionContext, type ToolOptions, type ToolSet } from "./tools/tool";

export { FullMemory } from "./strategies/full-memory";
export type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyName, MemoryStrategyResult } from "./strategies/memory-strategy";

export { InMemoryStore, type InMemoryStoreOptions } from "./stores/in-memory-store";
export { FileMemoryStore, type FileMemoryStoreOptions } from "./stores/file/file-memory-store";
export type { Fact, MemoryStore, MessageTail, SessionEntry, SummaryRecord } from "./stores/memory-store";
export { MAX_SESSION_ID_LENGTH, validateSessionId } from "./messages/session-id";

export type { MemoryProvider, MemoryReadOptions, MemoryRecord, MemoryWriteOptions } from "./providers/memory-provider";

// --- UI messages and streaming ---
export { convertToModelMessages, type ConvertToModelMessagesOptions } from "./ui/convert-to-model-messages";
export { convertToUIMessages } from "./ui/convert-to-ui-messages";
export type { PayloadLimits } from "./ui/guard-payload";
export type { UIDynamicToolPart, UIMessage, UIMessagePart, UIMessageV4, UIToolInvocationV4, UIToolPart, UIToolState } from "./ui/ui-message";
export { streamText, type StreamResponseOptions, type StreamTextFinishEvent, type StreamTextOptions, type StreamTextResult } from "./streaming/stream-text";
export { UI_MESSAGE_STREAM_HEADERS, type UIMessageChunk, type UIMessageStreamOptions } from "./streaming/ui-message-stream";
export { DEFAULT_FACT_LIMITS, MEMORY_TOOL_NAMES, type FactChange, type FactLimits } from "./tools/memory-tools";
export { factScopeId, type FactScope } from "./stores/fact-scope";

// --- model providers ---
export { APICallError, MissingApiKeyError } from "./errors";
export type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "./models/embedding-model";
export { createOpenAI, openai, type OpenAIProvider, type OpenAIProviderSettings } from "./models/openai/openai-provider";
export { createOpenAICompatible, type OpenAICompatibleProviderSettings } from "./models/openai/create-openai-compatible";
export type { OpenAIEmbeddingModelOptions } from "./models/openai/openai-embedding-model";
export { anthropic, createAnthropic, type AnthropicProvider, type AnthropicProviderSettings } from "./models/anthropic/anthropic-provider";
export {
  ANTHROPIC_DEFAULT_MAX_TOKENS,
  ANTHROPIC_FALLBACK_MAX_TOKENS,
  ANTHROPIC_MODEL_ALIASES,
  defaultAnthropicMaxTokens,
  resolveAnthropicModelId,
} from "./models/anthropic/anthropic-model-ids";
// --- semantic memory ---
export type { MemoryEntry, MemoryScope } from "./providers/memory-provider";
export { MemoryProviderError } from "./errors";
export { SemanticMemoryProvider, type SemanticMemoryProviderOptions } from "./providers/semantic-memory-provider";
export { InMemorySemanticIndex, type InMemorySemanticIndexOptions } from "./providers/in-memory-semantic-index";
export type { ScoredDocument, SemanticDocument, SemanticFilter, SemanticIndex } from "./providers/semantic-index";
export {
  VectorMemoryProvider,
  type VectorMemoryHit,
  type VectorMemoryItem,
  type VectorMemoryMetadata,
  type VectorMemoryProviderOptions,
  type VectorMemoryQuery,
} from "./providers/vector-memory-provider";
export { CompositeMemory, type CompositeMemoryMember, type CompositeMemoryOptions } from "./providers/composite-memory";
export { Mem0Provider, type Mem0Client, type Mem0ProviderOptions } from "./providers/mem0-provider";
export { PgVectorSemanticIndex, type PgVectorSemanticIndexOptions, type SqlClient } from "./providers/pgvector-semantic-index";
// --- strategies and tokens ---
export { SlidingWindowMemory, type SlidingWindowMemoryOptions } from "./strategies/sliding-window";
export { TokenWindowMemory, type TokenWindowMemoryOptions } from "./strategies/token-window";
export { SummaryMemory, SummarizingMemory, SUMMARIZER_INSTRUCTIONS, type SummaryMemoryOptions, type SummarizingMemoryOptions } from "./strategies/summary-memory";
export { BufferMemory, type BufferMemoryOptions } from "./strategies/buffer-memory";
export type { WindowBehaviourOptions } from "./strategies/window-options";
export { groupTurns, type TurnRange } from "./strategies/group-turns";
export { resolveMemoryStrategy } from "./strategies/resolve-memory-strategy";
export { SummarizationError, type SummarizationFailure } from "./errors";
export { estimateTokens, estimateMessagesTokens, type EstimateTokensOptions, type EstimateMessagesTokensOptions } from "./tokens/estimate-tokens";
export { trimToTokenBudget, type TrimToTokenBudgetOptions } from "./strategies/trim-to-token-budget";
export { TokenCalibration } from "./tokens/token-calibration";
export { NON_OPENAI_TOKEN_FACTOR } from "./tokens/tokenizer";
