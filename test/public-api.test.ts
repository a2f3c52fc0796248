// The root export is the public shape users need (docs/architecture.md), one block per part in
// src/index.ts. Adding or removing a runtime export is a deliberate change to this list.
import { describe, expect, it } from "vitest";
import * as agentcore from "../src/index";
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
      "FileMemoryStore",
      "FullMemory",
      "InMemorySemanticIndex",
      "InMemoryStore",
      "InvalidArgumentError",
      "InvalidMessageError",
      "Mem0Provider",
      "MemoryProviderError",
      "MissingApiKeyError",
      "NoSuchProviderError",
      "PgVectorSemanticIndex",
      "SemanticMemoryProvider",
      "SessionBusyError",
      "SessionLockLostError",
      "SlidingWindowMemory",
      "StoreError",
      "SummarizationError",
      "SummarizingMemory",
      "SummaryMemory",
      "TokenWindowMemory",
      "TokenizerNotLoadedError",
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
      "groupTurns",
      "isToolPairingValid",
      "jsonSchema",
      "listProviders",
      "loadTokenizer",
      "openai",
      "registerProvider",
      "repairToolPairing",
      "resolveLanguageModel",
      "streamText",
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
