// The type listings of both design documents, pasted as written, assigned to agentcore's own types
// both ways: a value typed as ours must satisfy the documented interface (code that consumes a
// provider as documented compiles) and a value typed as documented must satisfy ours (a class
// written to the document is accepted). Nothing here runs: `npm run typecheck` compiles it against
// the sources, and test/package-consumer.test.ts compiles it against the built .d.ts (node16).
// One name, two contracts (docs/providers.md, "MemoryProvider: two contracts"): `MemoryProvider`
// is the AgentLIB document's (read returns messages); the AgentCore document's `memoryProvider`
// option takes a recall provider, `MemoryProvider<MemoryRecord>`.
import {
  Agent,
  BufferMemory,
  CompositeMemory,
  createAgent,
  Mem0Provider,
  SlidingWindowMemory,
  SummarizingMemory,
  VectorMemoryProvider,
  type AgentMessage,
  type AgentOptions,
  type IMemoryStrategy,
  type MemoryRecord,
  type MemoryStore,
  type ModelMessage,
  type UIMessage,
} from "agentcore";
import type * as ours from "agentcore";

// --- The AgentLIB document (seeds/000), "Memory Provider Interface" and the listings after it ---

declare namespace AgentLIB {
  // Source: packages/core/src/types/index.ts:117-127
  export interface MemoryProvider {
    readonly type: string;
    /** Load prior conversation history to inject before the current run */
    read(options: MemoryReadOptions): Promise<ModelMessage[]>;
    /** Persist the messages produced by a completed run */
    write(messages: ModelMessage[], options: MemoryWriteOptions): Promise<void>;
    /** Remove all stored memory (optional — not all providers support this) */
    clear?(sessionId?: string): Promise<void>;
    /** Return raw entries for inspection/debugging */
    entries?(sessionId?: string): Promise<MemoryEntry[]>;
  }

  // Source: packages/core/src/types/index.ts:68-88
  export interface MemoryEntry {
    id: string;
    sessionId: string;
    messages: ModelMessage[];
    metadata: MemoryMetadata;
  }

  export interface MemoryMetadata {
    createdAt: Date;
    /** ISO string of when this memory was last accessed */
    accessedAt?: Date | undefined;
    /** Agent that created this memory */
    agentName?: string | undefined;
    /** Arbitrary key/value tags for filtering */
    tags?: Record<string, string> | undefined;
    /** Token count estimate for this entry */
    tokenCount?: number | undefined;
  }

  // Source: packages/core/src/types/index.ts:93-102
  export interface MemoryReadOptions {
    /** Max number of messages to return (provider may trim older ones) */
    limit?: number | undefined;
    /** Only return messages from this session */
    sessionId?: string | undefined;
    /** Semantic query for vector-based providers */
    query?: string | undefined;
    /** Filter by metadata tags */
    tags?: Record<string, string> | undefined;
  }

  // Source: packages/core/src/types/index.ts:107-111
  export interface MemoryWriteOptions {
    sessionId?: string | undefined;
    tags?: Record<string, string> | undefined;
    agentName?: string | undefined;
  }
}

// --- The AgentCore document (seeds/001): its listings are a class and a table, written as types ---

declare namespace AgentCore {
  /** "Building a Custom Database Adapter": the methods its `RedisMemoryStore implements MemoryStore` has. */
  export interface MemoryStore {
    getMessages(sessionId: string): Promise<AgentMessage[]>;
    setMessages(sessionId: string, messages: AgentMessage[]): Promise<void>;
    clearMessages(sessionId: string): Promise<void>;
    getFacts(sessionId: string): Promise<Record<string, string>>;
    setFact(sessionId: string, key: string, value: string): Promise<void>;
    deleteFact(sessionId: string, key: string): Promise<void>;
  }
  /** "Memory API Reference": the memory options of `AgentConfig`. `MemoryProvider` there is a recall provider. */
  export interface AgentConfig {
    memory?: "sliding_window" | "token_window" | "summary" | "full" | IMemoryStrategy;
    maxMessages?: number;
    maxTokens?: number;
    memoryStore?: MemoryStore;
    enableMemoryTools?: boolean;
    memoryProvider?: ours.MemoryProvider<MemoryRecord>;
  }
}

declare function value<T>(): T;

// --- Both ways, type by type ---

export const providerOursToDoc: AgentLIB.MemoryProvider = value<ours.MemoryProvider>();
export const providerDocToOurs: ours.MemoryProvider = value<AgentLIB.MemoryProvider>();
export const entryOursToDoc: AgentLIB.MemoryEntry = value<ours.MemoryEntry>();
export const entryDocToOurs: ours.MemoryEntry = value<AgentLIB.MemoryEntry>();
export const metadataOursToDoc: AgentLIB.MemoryMetadata = value<ours.MemoryMetadata>();
export const metadataDocToOurs: ours.MemoryMetadata = value<AgentLIB.MemoryMetadata>();
export const readOursToDoc: AgentLIB.MemoryReadOptions = value<ours.MemoryReadOptions>();
export const readDocToOurs: ours.MemoryReadOptions = value<AgentLIB.MemoryReadOptions>();
export const writeOursToDoc: AgentLIB.MemoryWriteOptions = value<ours.MemoryWriteOptions>();
export const writeDocToOurs: ours.MemoryWriteOptions = value<AgentLIB.MemoryWriteOptions>();

// The AgentCore document: a store written to it is a MemoryStore; the option table both ways.
export const storeDocToOurs: MemoryStore = value<AgentCore.MemoryStore>();
type MemoryOptions = Pick<
  AgentOptions,
  "memory" | "maxMessages" | "maxTokens" | "memoryStore" | "enableMemoryTools" | "memoryProvider"
>;
export const configDocToOurs: MemoryOptions = value<AgentCore.AgentConfig>();
// Ours → documented leaves out `memoryStore`, which takes more than the document's six methods
// (stores whose facts are rich records, docs/stores.md).
export const configOursToDoc: AgentCore.AgentConfig = value<Omit<MemoryOptions, "memoryStore">>();
export const recallOursToDoc: ours.RecallMemoryProvider = value<ours.MemoryProvider<MemoryRecord>>();
export const recallDocToOurs: ours.MemoryProvider<MemoryRecord> = value<ours.RecallMemoryProvider>();
export const recallProviders: ours.MemoryProvider<MemoryRecord>[] = [
  new Mem0Provider({ apiKey: "key" }),
  new VectorMemoryProvider({ search: async () => [], insert: async () => {} }),
];
export const uiMessages: UIMessage[] = [
  { id: "msg-1", role: "user", content: "What's the weather in Tokyo?", createdAt: new Date() },
];

// --- As users meet them ---

/** Code that consumes a provider as the AgentLIB document types it. */
async function history(provider: AgentLIB.MemoryProvider): Promise<ModelMessage[]> {
  return provider.read({ sessionId: "user-123", tags: { topic: "billing" } });
}
/** ... given agentcore's providers, each typed as ours and as themselves. */
export const histories = [
  history(value<ours.MemoryProvider>()),
  history(new BufferMemory({ maxMessages: 40 })),
  history(new SlidingWindowMemory({ maxTokens: 4000, maxTurns: 30 })),
  history(new SummarizingMemory({ recentMessages: 10 })),
  history(new CompositeMemory({ providers: [new BufferMemory()] })),
];
export const entryList: Promise<AgentLIB.MemoryEntry[]> | undefined = new BufferMemory().entries?.();
export const messages: Promise<ModelMessage[]> = new CompositeMemory({ providers: [new BufferMemory()] }).read({});
export const records: Promise<MemoryRecord[]> = new CompositeMemory({
  providers: [new Mem0Provider({ apiKey: "key" })],
}).read({});

/** A user's own provider, written to the document's interface (its `VectorMemory`, its `RedisMemory`). */
class VectorMemory implements AgentLIB.MemoryProvider {
  readonly type = "custom-vector";
  constructor(readonly options: { topK: number; threshold: number }) {}
  async read(options: AgentLIB.MemoryReadOptions): Promise<ModelMessage[]> {
    return options.query ? [{ role: "system", content: `Relevant: ${options.query}` }] : [];
  }
  async write(_messages: ModelMessage[], _options: AgentLIB.MemoryWriteOptions): Promise<void> {}
  async clear(_sessionId?: string): Promise<void> {}
  async entries(_sessionId?: string): Promise<AgentLIB.MemoryEntry[]> {
    return [];
  }
}
/** ... and to agentcore's, which is the same contract. */
class OwnMemory implements ours.MemoryProvider {
  readonly type = "own";
  async read(_options: ours.MemoryReadOptions): Promise<ModelMessage[]> {
    return [];
  }
  async write(_messages: ModelMessage[], _options: ours.MemoryWriteOptions): Promise<void> {}
}

export const composite: AgentLIB.MemoryProvider = new CompositeMemory({
  providers: [
    new BufferMemory({ maxMessages: 20 }), // Recent conversation
    new VectorMemory({ topK: 5, threshold: 0.7 }), // Relevant past context
  ],
  mergeStrategy: "interleave", // or 'concat' or 'priority'
});
export const withMember = new CompositeMemory({
  providers: [{ provider: new VectorMemory({ topK: 5, threshold: 0.7 }), timeoutMs: 500 }, new OwnMemory()],
});
export const agent = createAgent({ name: "assistant" })
  .memory(new VectorMemory({ topK: 5, threshold: 0.7 }))
  .memory(new OwnMemory())
  .memory(composite);
export const recallAgent = new Agent({ model: "openai/gpt-4o", memoryProvider: new Mem0Provider({ apiKey: "key" }) });
