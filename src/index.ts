// The public surface of agentcore, one block per part (docs/architecture.md). Named exports
// only; everything else, tuning constants and helpers included, is internal. What few programs
// name lives in subpaths: agentcore/semantic (the semantic indexes, the vector callbacks' types),
// agentcore/telemetry (the telemetry option's types), agentcore/tuning (nested limit options).

// --- agent ---
export { Agent } from "./agent/agent";
export { createAgent, type CreateAgentOptions } from "./agent/create-agent";
export { stopRun, type StopRunOptions } from "./agent/stop-run";
export type { AgentConfig, AgentOptions, AgentRunOptions } from "./agent/agent-options";
export type { ModelPrice, ModelPricing } from "./agent/model-pricing";
export type { GenerateTitleOptions } from "./agent/title-options";
export {
  hasToolCall,
  stepCountIs,
  tokenBudgetIs,
  type StopCondition,
  type StopConditionState,
  type StopWhen,
} from "./agent/stop-conditions";
export type { PrepareStep, PrepareStepOptions, PrepareStepResult } from "./agent/prepare-step-options";
export type { WorkingMemoryOptions } from "./agent/working-memory-options";
export type { WorkingMemoryOwner } from "./agent/working-memory-api";
export type {
  AgentObjectResult,
  AgentResult,
  AgentStreamPart,
  RunFinishReason,
  RunStoppedBy,
  StepResult,
  ToolApprovalRequest,
  ToolApprovalResponse,
  ToolResult,
} from "./agent/agent-result";
export { AgentStream, type DeepPartial } from "./agent/agent-stream";
export type { InferOutput, OutputOptions, OutputSpec } from "./agent/output-spec";
export type { AgentEventListener, AgentEventMap, AgentEventName } from "./agent/agent-events";

// --- streaming ---
export {
  streamText,
  type StreamResponseOptions,
  type StreamTextFinishEvent,
  type StreamTextOptions,
  type StreamTextResult,
} from "./streaming/stream-text";
export type { UIMessageChunk, UIMessageStreamOptions } from "./streaming/ui-message-stream";
export { resumeStream, type ResumeStreamOptions } from "./streaming/resume-stream";
export type { ResumableStreamOptions } from "./streaming/resumable-option";

// --- ui ---
export { convertToModelMessages, type ConvertToModelMessagesOptions } from "./ui/convert-to-model-messages";
export { convertToUIMessages } from "./ui/convert-to-ui-messages";
export type {
  UIDynamicToolPart,
  UIMessage,
  UIMessagePart,
  UIMessageV4,
  UIMessageV5,
  UIToolInvocationV4,
  UIToolPart,
  UIToolState,
  UIMessageAgentMetadata,
} from "./ui/ui-message";

// --- messages ---
export type {
  AgentMessage,
  AssistantMessage,
  StoredMessage,
  SystemMessage,
  ToolCall,
  ToolCallApproval,
  ToolMessage,
  UserMessage,
} from "./messages/agent-message";
export type { FilePart, ImagePart, ReasoningPart, TextPart, UserContentPart } from "./messages/content-parts";
export { contentText } from "./messages/content-text";
export type { MessageLimits } from "./messages/message-limits";
export type { MessageMetadata, MessageUsage, StepMetadata } from "./messages/message-metadata";
export { decodeStoredMessages, encodeStoredMessages } from "./messages/stored-encoding";
export { findToolPairingIssues, isToolPairingValid } from "./messages/validate-tool-pairing";
export { repairToolPairing, type RepairToolPairingResult } from "./messages/repair-tool-pairing";

// --- models ---
export type {
  FinishReason,
  LanguageModel,
  LanguageModelCall,
  LanguageModelFactory,
  LanguageModelResult,
  LanguageModelStreamPart,
  LanguageModelUsage,
  PromptCacheBreakpoints,
  ResponseFormat,
  ToolChoice,
  ToolDefinition,
} from "./models/language-model";
export type { EmbeddingModel, EmbeddingModelCall, EmbeddingModelResult } from "./models/embedding-model";
export {
  listProviders,
  registerProvider,
  resolveLanguageModel,
  unregisterProvider,
  type ProviderFactory,
} from "./models/registry/model-registry";
export { fromAISDK } from "./models/ai-sdk/from-ai-sdk";
export type { AISDKModelSettings } from "./models/ai-sdk/ai-sdk-language-model";
export type { AISDKEmbeddingModelSettings } from "./models/ai-sdk/ai-sdk-embedding-model";
export { fromEmbedFunction, type EmbedFunction, type EmbedFunctionOptions } from "./models/function-embedding-model";
export type { AISDKEmbeddingModel, AISDKLanguageModel } from "./models/ai-sdk/ai-sdk-types";
export {
  createOpenAI,
  openai,
  type OpenAIProvider,
  type OpenAIProviderSettings,
} from "./models/openai/openai-provider";
export {
  createOpenAICompatible,
  type OpenAICompatibleProviderSettings,
} from "./models/openai-compatible/create-openai-compatible";
export type { OpenAIEmbeddingModelOptions } from "./models/openai/openai-embedding-model";
export {
  anthropic,
  createAnthropic,
  type AnthropicProvider,
  type AnthropicProviderSettings,
} from "./models/anthropic/anthropic-provider";

// --- strategies ---
export type {
  IMemoryStrategy,
  MemoryStrategyContext,
  MemoryStrategyName,
  MemoryStrategyResult,
} from "./strategies/memory-strategy";
export { FullMemory } from "./strategies/full-memory";
export { SlidingWindowMemory, type SlidingWindowMemoryOptions } from "./strategies/sliding-window";
export { TokenWindowMemory, type TokenWindowMemoryOptions } from "./strategies/token-window";
export { SummaryMemory, type SummaryMemoryOptions } from "./strategies/summary-memory";
export { SummarizingMemory, type SummarizingMemoryOptions } from "./strategies/summarizing-memory";
export { BufferMemory, type BufferMemoryOptions } from "./strategies/buffer-memory";
export { groupTurns, type TurnRange } from "./strategies/group-turns";
export type { ConversationTurn } from "./strategies/group-turns";
export { trimToTokenBudget, type TrimToTokenBudgetOptions } from "./strategies/trim-to-token-budget";

// --- stores ---
export type {
  Fact,
  FactRecord,
  MemoryStore,
  MessageTail,
  SessionEntry,
  ListSessionsOptions,
  SessionPage,
  SessionLockOptions,
  SessionUpdate,
  SummaryReadOptions,
  SummaryRecord,
} from "./stores/memory-store";
export type { AppendOptions, UsageQuery, UsageTotals, UserDataDeletion } from "./stores/usage-totals";
export type { JsonValue, SessionMetadata } from "./stores/session-metadata";
export { previewOf } from "./stores/session-preview";
export type { FactScope } from "./stores/fact-scope";
export { InMemoryStore, type InMemoryStoreOptions } from "./stores/in-memory-store";
export { FileMemoryStore, type FileMemoryStoreOptions } from "./stores/file/file-memory-store";

// --- providers ---
export type {
  AnyMemoryProvider,
  MemoryEntry,
  MemoryMetadata,
  MemoryProvider,
  MemoryReadOptions,
  MemoryRecord,
  MemoryRecordEntry,
  MemoryScope,
  MemoryTags,
  MemoryWriteOptions,
  MessageMemoryProvider,
  ModelMessage,
  RecallMemoryProvider,
  RecallReadOptions,
  EmbeddingUsage,
  RecallWriteOptions,
  StoredMemoryEntry,
} from "./providers/memory-provider";
export {
  SemanticMemoryProvider,
  type SemanticMemoryProviderOptions,
  type SemanticReadOptions,
} from "./providers/semantic-memory-provider";
export { VectorMemoryProvider, type VectorMemoryProviderOptions } from "./providers/vector-memory-provider";
export {
  CompositeMemory,
  type CompositeMemoryMember,
  type CompositeMemoryOptions,
} from "./providers/composite-memory";
export { Mem0Provider, type Mem0Client, type Mem0ProviderOptions } from "./providers/mem0-provider";

// --- tools ---
export {
  tool,
  type Tool,
  type ToolCallOptions,
  type ToolExecutionContext,
  type ToolInput,
  type ToolNeedsApproval,
  type ToolOptions,
  type ToolParameters,
  type ToolSet,
} from "./tools/tool";
export { jsonSchema, type JsonSchema, type JsonSchemaOptions, type ToolInputValidation } from "./tools/json-schema";
export type { FactChange } from "./tools/memory-tools";
export type { WorkingMemoryPartial, WorkingMemoryPatch } from "./tools/working-memory-patch";
export type {
  WorkingMemoryChange,
  WorkingMemoryFieldInfo,
  WorkingMemorySnapshot,
} from "./tools/working-memory-profile";

// --- tokens ---
export {
  estimateTokens,
  estimateMessagesTokens,
  loadTokenizer,
  type EstimateMessagesTokensOptions,
  type EstimateTokensOptions,
} from "./tokens/estimate-tokens";
export { provideTokenizer, type TokenizerTables } from "./tokens/provide-tokenizer";

// --- errors ---
export {
  AgentCoreError,
  AbortError,
  APICallError,
  CorruptStoreError,
  InvalidArgumentError,
  InvalidMessageError,
  MemoryProviderError,
  EmbeddingDimensionError,
  MessageNotFoundError,
  MissingApiKeyError,
  NoObjectGeneratedError,
  NoSuchProviderError,
  NothingToRegenerateError,
  PrepareStepError,
  SessionBusyError,
  SessionOwnershipError,
  SessionLockLostError,
  StoreError,
  SummarizationError,
  TitleGenerationError,
  TokenizerNotLoadedError,
  ToolApprovalNotPendingError,
  ToolApprovalPendingError,
  UnsupportedPartError,
  UnsupportedRuntimeError,
  type MessageIssue,
  type NoObjectReason,
  type PrepareStepProblem,
  type SummarizationFailure,
  type TitleGenerationFailure,
} from "./errors";
