// The bounds on an MCP server's sampling requests (a model completion the server asks the client
// for): what the user configures, checked once at createMCPClient.
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { LanguageModel } from "../../models/language-model";
import type { ToolExecutionContext } from "../tool";

/** A server's sampling request as agentcore hands it to `onSampling`, already within the caps. */
export interface MCPSamplingRequest {
  /**
   * The server's system prompt, as it sent it. Untrusted: the model gets it inside a block that
   * names the server as its author, never as the client's own instructions. Return the request
   * without it to drop it.
   */
  systemPrompt?: string;
  /** The server's messages (text only: a request with images, audio or tools is refused before this). */
  messages: Array<{ role: "user" | "assistant"; content: string }>;
  /** Tokens the answer may take: what the server asked for, lowered to `maxTokens`. */
  maxTokens: number;
  /** What the server asked for, clamped to the model's valid range (0 to 1 for Anthropic, 0 to 2 otherwise). */
  temperature?: number;
}

/** Who asks: the server, and the tool call the request is counted against. */
export interface MCPSamplingContext {
  /** The server's name. */
  server: string;
  /**
   * The tool call of this client in flight that the request is counted against (when several are,
   * the one that has sampled least so far: MCP does not say which one a request serves). Absent
   * when no tool call is in flight (only with `allowOutsideToolCall`).
   */
  toolCall?: { toolName: string } & Pick<ToolExecutionContext, "toolCallId" | "sessionId" | "runId" | "userId">;
  /** 1 for the first request counted against that tool call. */
  requestNumber: number;
}

/** What `onSampling` decides: the request to send (as given, or rewritten), or a refusal sent to the server. */
export type MCPSamplingDecision = MCPSamplingRequest | { refuse: string };

/** MCP sampling: the server may ask for a model completion (its tools that "ask the LLM"). */
export interface MCPSamplingOptions {
  /**
   * The model that answers: a `"provider/model"` id or a `LanguageModel`.
   * @default the model of the agent whose tool call is waiting on the server (an error when none is, or when agents with different models are)
   */
  model?: string | LanguageModel;
  /** The most tokens a request's answer may take: a server asking for more gets this many. @default 4096 */
  maxTokens?: number;
  /**
   * Requests one tool call may make; the next ones are refused (an MCP error the server sees).
   * @default 5
   */
  maxRequestsPerToolCall?: number;
  /**
   * Answer requests that come while no tool call of this client is in flight (a server sampling
   * on its own, on your bill, with no run to count its tokens in). Needs `model`. @default false
   */
  allowOutsideToolCall?: boolean;
  /**
   * Sees each request after the caps and before the model: return it (as it is or rewritten: a
   * different prompt, fewer tokens, no system prompt) or `{ refuse: "why" }`, which the server
   * gets as an MCP error. The caps apply again to what it returns. @default every request within the caps is answered
   */
  onSampling?: (
    request: MCPSamplingRequest,
    context: MCPSamplingContext,
  ) => MCPSamplingDecision | Promise<MCPSamplingDecision>;
}

/** The options with their defaults, checked. */
export interface ResolvedSamplingOptions {
  model: string | LanguageModel | undefined;
  maxTokens: number;
  maxRequestsPerToolCall: number;
  allowOutsideToolCall: boolean;
  onSampling: MCPSamplingOptions["onSampling"];
}

const defaultMaxTokens = 4096;
const defaultMaxRequestsPerToolCall = 5;

/** `sampling` as given to createMCPClient, checked: undefined when sampling is off. */
export function resolveSamplingOptions(sampling: unknown): ResolvedSamplingOptions | undefined {
  if (sampling === undefined || sampling === false) return undefined;
  if (sampling !== true && (typeof sampling !== "object" || sampling === null))
    throw new InvalidArgumentError({
      argument: "sampling",
      value: sampling,
      message:
        'sampling must be true or { model?: "provider/model" | LanguageModel, maxTokens?, maxRequestsPerToolCall?, allowOutsideToolCall?, onSampling? }.',
    });
  const options: MCPSamplingOptions = sampling === true ? {} : (sampling as MCPSamplingOptions);
  const maxTokens = positiveInteger(options.maxTokens, "maxTokens", defaultMaxTokens);
  const maxRequestsPerToolCall = positiveInteger(
    options.maxRequestsPerToolCall,
    "maxRequestsPerToolCall",
    defaultMaxRequestsPerToolCall,
  );
  const allowOutsideToolCall = options.allowOutsideToolCall ?? false;
  if (typeof allowOutsideToolCall !== "boolean")
    throw new InvalidArgumentError({
      argument: "sampling.allowOutsideToolCall",
      value: allowOutsideToolCall,
      message: "sampling.allowOutsideToolCall must be true or false (default false).",
    });
  if (allowOutsideToolCall && options.model === undefined)
    throw new InvalidArgumentError({
      argument: "sampling.model",
      value: undefined,
      message:
        "sampling.allowOutsideToolCall needs sampling.model: with no tool call in flight there is no agent's model to use.",
    });
  if (options.onSampling !== undefined && typeof options.onSampling !== "function")
    throw new InvalidArgumentError({
      argument: "sampling.onSampling",
      value: options.onSampling,
      message: "sampling.onSampling must be a function (request, context) => request | { refuse: string }.",
    });
  return {
    model: options.model,
    maxTokens,
    maxRequestsPerToolCall,
    allowOutsideToolCall,
    onSampling: options.onSampling,
  };
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  throw new InvalidArgumentError({
    argument: `sampling.${name}`,
    value,
    message: `sampling.${name} must be a positive integer (default ${fallback}).`,
  });
}
