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
  UnsupportedFeatureError,
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
  LanguageModelResult,
  LanguageModelStreamPart,
  LanguageModelUsage,
  ToolDefinition,
} from "./models/language-model";
export { listProviders, registerProvider, resolveLanguageModel, unregisterProvider, type LanguageModelFactory } from "./models/model-registry";

export { tool, type Tool, type ToolExecutionContext, type ToolOptions, type ToolSet } from "./tools/tool";

export { FullMemory } from "./strategies/full-memory";
export type { IMemoryStrategy, MemoryStrategyContext, MemoryStrategyName, MemoryStrategyResult } from "./strategies/memory-strategy";

export { InMemoryStore } from "./stores/in-memory-store";
export type { Fact, MemoryStore, SessionEntry, SummaryRecord } from "./stores/memory-store";
export { MAX_SESSION_ID_LENGTH, validateSessionId } from "./stores/session-id";

export type { MemoryProvider, MemoryReadOptions, MemoryRecord, MemoryWriteOptions } from "./providers/memory-provider";

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
export { trimToTokenBudget, type TrimToTokenBudgetOptions } from "./tokens/trim-to-token-budget";
export { TokenCalibration } from "./tokens/token-calibration";
export { NON_OPENAI_TOKEN_FACTOR } from "./tokens/tokenizer";
