import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../models/language-model";
import { Agent } from "./agent";
import { agentlibRules, type InternalAgentOptions } from "./agent-config";
import type { AgentOptions } from "./agent-options";

/** `createAgent`'s options: those of `new Agent()`, the model optional (a run without one fails, naming it). */
export interface CreateAgentOptions<Context = unknown> extends Omit<AgentOptions<Context>, "model"> {
  model?: string | LanguageModel | AISDKLanguageModel;
}

/**
 * The AgentLIB document's way to build an agent: the same options and engine as `new Agent()`,
 * with builder calls that return the agent (`createAgent({ name, model }).memory(new BufferMemory())`).
 * One rule differs, the document's: a run without a `sessionId` (and no `sessionId` option) gets a
 * new session, so such runs share no memory; `new Agent()` keeps one session per instance instead.
 */
export function createAgent<Context = unknown>(
  options: CreateAgentOptions<Context>,
): Agent<Context, string | undefined> {
  // Bad options are refused by `new Agent()`, naming what is wrong.
  if (options == null || typeof options !== "object")
    return new Agent<Context, string | undefined>(options as unknown as AgentOptions<Context>);
  const marked: InternalAgentOptions = { ...(options as unknown as AgentOptions), [agentlibRules]: true };
  return new Agent<Context, string | undefined>(marked as unknown as AgentOptions<Context>);
}
