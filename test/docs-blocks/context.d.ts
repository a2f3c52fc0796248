// The names the README's and docs' fragments (blocks marked <!-- partial -->) take from the text
// around them: "your model", "your tools", "your auth", the store made a paragraph earlier. Global
// declarations, so a block that defines the name itself shadows it. Used by test/docs-blocks.test.ts,
// which also gives a fragment the agentcore exports it names without importing them.

declare const model: import("agentcore").LanguageModel;
declare const myModel: import("agentcore").LanguageModel;
declare const tools: import("agentcore").ToolSet;
declare const myTools: import("agentcore").ToolSet;
declare const get_weather: import("agentcore").Tool;
declare const agent: import("agentcore").Agent;
declare const sessionId: string;
declare const userId: string;
declare const threadId: string;
declare const token: string;
declare const apiKey: string;
declare const path: string;
declare const messages: import("agentcore").AgentMessage[];
declare const memoryStore: import("agentcore").MemoryStore;
declare const embedder: import("agentcore").EmbeddingModel;
declare const index: import("agentcore/semantic").SemanticIndex;
// "client": a Redis client on the stores' pages, a ready mem0 client on the semantic-memory page.
declare const client: import("ioredis").Redis & import("agentcore").Mem0Client;
declare const Database: typeof import("better-sqlite3");
declare const req: Request;
// The MCP section: a server's transport, a client made a block earlier, the app's own way to ask the user.
declare const transport: import("agentcore/mcp").MCPClientOptions["transport"];
declare const mcp: import("agentcore/mcp").MCPClient;
declare function ask(message: string, schema: unknown): Promise<Record<string, string | number | boolean>>;
declare const log: { warn(value: unknown): void; (...values: unknown[]): void };
declare function getSession(request: Request): Promise<{ id: string; userId: string; sessionId: string }>;
declare function sessionFromRequest(request: Request): Promise<{ sessionId: string; userId: string }>;
declare class MyStore {
  getMessages(sessionId: string): Promise<import("agentcore").AgentMessage[]>;
  setMessages(sessionId: string, messages: import("agentcore").AgentMessage[]): Promise<void>;
  clearMessages(sessionId: string): Promise<void>;
  getFacts(sessionId: string): Promise<Record<string, string>>;
  setFact(sessionId: string, key: string, value: string): Promise<void>;
  deleteFact(sessionId: string, key: string): Promise<void>;
}
declare class MyProvider {
  readonly type: string;
  read(options: import("agentcore").MemoryReadOptions): Promise<import("agentcore").MemoryRecord[]>;
  write(messages: import("agentcore").AgentMessage[], options: import("agentcore").MemoryWriteOptions): Promise<void>;
}

// A provider package the pages name but the test app does not install: typed as another provider.
declare module "@ai-sdk/google" {
  export const google: typeof import("@ai-sdk/openai").openai;
}
