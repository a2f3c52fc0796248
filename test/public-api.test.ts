// The root export is the public shape users need (docs/architecture.md), one block per part in
// src/index.ts. Adding or removing a runtime export is a deliberate change to this list.
import { readFileSync } from "node:fs";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import * as agentcore from "../src/index";
import * as semantic from "../src/providers/semantic/index";
// The fixed type names of the public shape: removing one fails `npm run typecheck`.
import type {
  AgentMessage,
  IMemoryStrategy,
  LanguageModel,
  MemoryEntry,
  MemoryProvider,
  MemoryStore,
  UIMessage,
} from "../src/index";

// biome-ignore lint/suspicious/noExportsInTest: an exported type makes tsc check the names without an unused-type error
export type FixedTypes = [
  AgentMessage,
  UIMessage,
  MemoryStore,
  MemoryProvider,
  IMemoryStrategy,
  MemoryEntry,
  LanguageModel,
];

describe("the root export", () => {
  it("is exactly the public shape: classes, functions and errors, no constants or internal helpers", () => {
    expect(Object.keys(agentcore).sort()).toEqual([
      "APICallError",
      "AbortError",
      "Agent",
      "AgentCoreError",
      "AgentStream",
      "BufferMemory",
      "CompositeMemory",
      "CorruptStoreError",
      "EmbeddingDimensionError",
      "FileMemoryStore",
      "FullMemory",
      "InMemoryStore",
      "InvalidArgumentError",
      "InvalidMessageError",
      "Mem0Provider",
      "MemoryProviderError",
      "MessageNotFoundError",
      "MissingApiKeyError",
      "NoObjectGeneratedError",
      "NoSuchProviderError",
      "NothingToRegenerateError",
      "PrepareStepError",
      "SemanticMemoryProvider",
      "SessionBusyError",
      "SessionLockLostError",
      "SessionOwnershipError",
      "SlidingWindowMemory",
      "StoreError",
      "SummarizationError",
      "SummarizingMemory",
      "SummaryMemory",
      "TitleGenerationError",
      "TokenWindowMemory",
      "TokenizerNotLoadedError",
      "ToolApprovalNotPendingError",
      "ToolApprovalPendingError",
      "UnsupportedPartError",
      "UnsupportedRuntimeError",
      "VectorMemoryProvider",
      "anthropic",
      "contentText",
      "convertToModelMessages",
      "convertToUIMessages",
      "createAgent",
      "createAnthropic",
      "createOpenAI",
      "createOpenAICompatible",
      "decodeStoredMessages",
      "encodeStoredMessages",
      "estimateMessagesTokens",
      "estimateTokens",
      "findToolPairingIssues",
      "fromAISDK",
      "fromEmbedFunction",
      "groupTurns",
      "hasToolCall",
      "isToolPairingValid",
      "jsonSchema",
      "listProviders",
      "loadTokenizer",
      "openai",
      "previewOf",
      "provideTokenizer",
      "registerProvider",
      "repairToolPairing",
      "resolveLanguageModel",
      "resumeStream",
      "stepCountIs",
      "stopRun",
      "streamText",
      "tokenBudgetIs",
      "tool",
      "trimToTokenBudget",
      "unregisterProvider",
    ]);
  });

  it("holds no constant (no SCREAMING_CASE name, no plain value)", () => {
    const names = Object.keys(agentcore);
    expect(names.filter((name) => /^[A-Z][A-Z0-9_]+$/.test(name))).toEqual([]);
    expect(names.filter((name) => typeof (agentcore as Record<string, unknown>)[name] !== "function")).toEqual([]);
  });

  it("keeps the fixed names of the public shape", () => {
    for (const name of [
      "Agent",
      "streamText",
      "convertToModelMessages",
      "convertToUIMessages",
      "tool",
      "SlidingWindowMemory",
      "TokenWindowMemory",
      "SummaryMemory",
      "FullMemory",
      "BufferMemory",
      "SummarizingMemory",
      "CompositeMemory",
      "InMemoryStore",
      "FileMemoryStore",
      "Mem0Provider",
      "VectorMemoryProvider",
      "estimateTokens",
      "estimateMessagesTokens",
      "trimToTokenBudget",
    ]) {
      expect(typeof (agentcore as Record<string, unknown>)[name], name).toBe("function");
    }
  });
});

/** The names an entry file exports, types included, read from its export declarations. */
function exportedNames(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(new URL(file, import.meta.url), "utf8"),
    ts.ScriptTarget.Latest,
  );
  const names: string[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement)) continue;
    const clause = statement.exportClause;
    if (!clause || !ts.isNamedExports(clause)) throw new Error(`${file}: export * is not allowed in an entry`);
    for (const element of clause.elements) names.push(element.name.text);
  }
  return names.sort();
}

describe("the subpaths hold what most programs never name", () => {
  const subpaths = {
    "agentcore/semantic": [
      "InMemorySemanticIndex",
      "InMemorySemanticIndexOptions",
      "MemoryFilter",
      "MemoryItemMetadata",
      "PgVectorSemanticIndex",
      "PgVectorSemanticIndexOptions",
      "ScoredDocument",
      "SemanticDocument",
      "SemanticFilter",
      "SemanticIndex",
      "SqlClient",
      "VectorInsertOptions",
      "VectorMemoryHit",
      "VectorMemoryItem",
      "VectorMemoryMetadata",
      "VectorMemoryQuery",
      "VectorSearchOptions",
    ],
    "agentcore/telemetry": [
      "TelemetryAttributeValue",
      "TelemetryAttributes",
      "TelemetryContext",
      "TelemetryOptions",
      "TelemetrySpan",
      "TelemetrySpanOptions",
      "TelemetryTracer",
    ],
    "agentcore/tuning": ["FactLimits", "PayloadLimits", "WindowBehaviourOptions"],
    "agentcore/inspector": [
      "ContextLeftOut",
      "ContextLeftOutReason",
      "ContextRecalledMemory",
      "ContextReport",
      "ContextReportReadOptions",
      "ContextTokens",
      "InspectorHandlerOptions",
      "createInspectorHandler",
      "newInspectorToken",
    ],
  };
  const files: Record<keyof typeof subpaths, string> = {
    "agentcore/semantic": "../src/providers/semantic/index.ts",
    "agentcore/telemetry": "../src/agent/telemetry/index.ts",
    "agentcore/tuning": "../src/tuning.ts",
    "agentcore/inspector": "../src/inspector/index.ts",
  };
  const root = exportedNames("../src/index.ts");

  it("the root names 250 symbols, runtime and types (192 before the subpaths; +9 for content parts; +7 for tool approvals; +8 for structured output; +2 errors of regenerate and edit; +1 PromptCacheBreakpoints; +2 provideTokenizer and its TokenizerTables; +1 UnsupportedPartError; +2 AISDKEmbeddingModel and its settings; +3 SessionOwnershipError, ListSessionsOptions, SessionPage; +14 for threads: AppendOptions, UsageQuery, UsageTotals, UserDataDeletion, SessionUpdate, JsonValue, SessionMetadata, previewOf, ModelPrice, ModelPricing, GenerateTitleOptions, EmbeddingUsage, TitleGenerationError and its TitleGenerationFailure; +4 MessageMetadata, MessageUsage, StepMetadata, UIMessageAgentMetadata; +2 stopRun and its StopRunOptions; +3 resumeStream and its options; +14 loop control: stepCountIs, hasToolCall, tokenBudgetIs, PrepareStepError and 10 types; +4 EmbeddingDimensionError, fromEmbedFunction and 2 types; +7 working memory types)", () => {
    expect(root).toHaveLength(250);
    expect(new Set(root).size).toBe(root.length);
  });

  it.each(Object.keys(subpaths) as (keyof typeof subpaths)[])(
    "%s exports exactly its list, none of it in the root",
    (subpath) => {
      const names = exportedNames(files[subpath]);
      expect(names).toEqual([...subpaths[subpath]].sort());
      expect(names.filter((name) => root.includes(name))).toEqual([]);
    },
  );

  it("agentcore/semantic's runtime exports are the two indexes", () => {
    expect(Object.keys(semantic).sort()).toEqual(["InMemorySemanticIndex", "PgVectorSemanticIndex"]);
  });
});
