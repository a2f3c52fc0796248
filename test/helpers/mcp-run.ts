// One agent run whose scripted model calls the given tools, then answers "done": the run's
// result, what the store holds afterwards and what the model received.
import { Agent } from "../../src/agent/agent";
import type { AgentMessage, ToolMessage } from "../../src/messages/agent-message";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import type { ToolSet } from "../../src/tools/tool";

export async function runToolCalls(
  tools: ToolSet,
  toolCalls: { id?: string; name: string; arguments: object }[],
  options: { signal?: AbortSignal; onToolCall?: () => void } = {},
) {
  const store = new InMemoryStore();
  const model = new MockLanguageModel({ responses: [{ toolCalls }, { text: "done" }] });
  const agent = new Agent({ model, tools, memoryStore: store, sessionId: "mcp-session" });
  if (options.onToolCall) agent.on("tool:call", options.onToolCall);
  const outcome = await agent.run({ input: "go", ...(options.signal ? { signal: options.signal } : {}) }).then(
    (result) => ({ result, error: undefined }),
    (error: unknown) => ({ result: undefined, error }),
  );
  const stored = await store.getMessages("mcp-session");
  return {
    ...outcome,
    stored,
    model,
    toolMessages: stored.filter((message): message is ToolMessage & AgentMessage => message.role === "tool"),
  };
}
