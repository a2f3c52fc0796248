// What an MCP server may ask of agentcore's client: sampling (a model completion), elicitation (a
// question for the user) and roots (the directories it may work in). Each is advertised only
// when the user configured it; one instance serves every connection of an MCPClient.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  type ClientCapabilities,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { LanguageModel } from "../../models/language-model";
import { resolveLanguageModel } from "../../models/registry/model-registry";
import { jsonSchema } from "../json-schema";
import type { ToolExecutionContext } from "../tool";
import { answerSampling, samplingRefused } from "./mcp-sampling";
import { type MCPSamplingOptions, type ResolvedSamplingOptions, resolveSamplingOptions } from "./mcp-sampling-options";

/** A question the server asks the user (MCP elicitation, form mode). */
export interface MCPElicitationRequest {
  /** The server's name. */
  server: string;
  /** What the server asks, for the user to read. */
  message: string;
  /** JSON Schema of the answer: an object of flat string, number, boolean and enum fields. */
  requestedSchema: Record<string, unknown>;
  /** The tool call waiting on the answer, when exactly one call of this client is in flight. */
  toolCall?: { toolName: string } & Pick<ToolExecutionContext, "toolCallId" | "sessionId" | "runId" | "userId">;
  /** Aborted when the server gives up on the question or the call is cancelled. */
  abortSignal: AbortSignal;
}

/** The user's answer: `accept` with the fields, or `decline` (said no) or `cancel` (dismissed). */
export type MCPElicitationResult =
  | { action: "accept"; content: Record<string, string | number | boolean | string[]> }
  | { action: "decline" | "cancel" };

/** Asks the user what the server wants to know. */
export type MCPElicitationHandler = (request: MCPElicitationRequest) => Promise<MCPElicitationResult>;

/** A directory (or file) the server may work in: a `file://` URI and a name to show. */
export interface MCPRoot {
  uri: string;
  name?: string;
}

interface ActiveCall {
  toolName: string;
  context: ToolExecutionContext | undefined;
  /** Sampling requests counted against the call so far. */
  samplingRequests: number;
}

/** @internal The state behind the client's answers to server requests. */
export class MCPServerRequests {
  private readonly sampling: ResolvedSamplingOptions | undefined;
  private readonly samplingModel: LanguageModel | undefined;
  private readonly elicitation: MCPElicitationHandler | undefined;
  private roots: MCPRoot[] | undefined;
  private readonly active = new Set<ActiveCall>();
  private answering = 0;
  private readonly pauseListeners = new Set<(paused: boolean) => void>();

  constructor(
    private readonly server: () => string,
    options: { sampling?: MCPSamplingOptions | boolean; elicitation?: MCPElicitationHandler; roots?: MCPRoot[] },
  ) {
    this.sampling = resolveSamplingOptions(options.sampling);
    this.samplingModel = this.sampling?.model === undefined ? undefined : resolveLanguageModel(this.sampling.model);
    if (options.elicitation !== undefined && typeof options.elicitation !== "function")
      throw new InvalidArgumentError({
        argument: "elicitation",
        value: options.elicitation,
        message: "elicitation must be a function (request) => Promise<{ action, content? }>.",
      });
    this.elicitation = options.elicitation;
    if (options.roots !== undefined) this.roots = checkRoots(options.roots);
  }

  /** What the client tells the server it can do. */
  capabilities(): ClientCapabilities {
    return {
      ...(this.sampling ? { sampling: {} } : {}),
      ...(this.elicitation ? { elicitation: { form: {} } } : {}),
      ...(this.roots ? { roots: { listChanged: true } } : {}),
    };
  }

  /** Registers the handlers on a new connection's client (before it connects). */
  attach(client: Client): void {
    const sampling = this.sampling;
    if (sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, (request, extra) => {
        const call = this.samplingCall(sampling);
        const requestNumber = call?.samplingRequests ?? 1;
        return this.answer(async () => {
          const context = call?.context;
          const { result, usage, model } = await answerSampling(request.params, {
            model: () => this.modelForSampling(),
            options: sampling,
            context: {
              server: this.server(),
              ...(call ? { toolCall: describeCall(call) } : {}),
              requestNumber,
            },
            abortSignal: extra.signal,
          });
          // Priced by the model that answered (a sampling model of its own, or the agent's).
          context?.reportUsage?.(usage, model);
          return result;
        });
      });
    }
    const elicitation = this.elicitation;
    if (elicitation) {
      client.setRequestHandler(ElicitRequestSchema, async (request, extra) => {
        const params = request.params;
        if (params.mode === "url")
          throw new McpError(ErrorCode.InvalidParams, "This client answers form-mode elicitation only.");
        const call = this.soleCall();
        const answer = await this.answer(() =>
          elicitation({
            server: this.server(),
            message: params.message,
            requestedSchema: params.requestedSchema as Record<string, unknown>,
            ...(call ? { toolCall: describeCall(call) } : {}),
            abortSignal: extra.signal,
          }),
        );
        if (answer?.action === "accept") {
          const checked = jsonSchema(params.requestedSchema as Record<string, unknown>).validate(answer.content);
          if (!checked.success)
            throw new McpError(
              ErrorCode.InvalidParams,
              `The answer does not fit the requested schema: ${checked.issues.join("; ")}`,
            );
        }
        return answer;
      });
    }
    if (this.roots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: this.roots ?? [] }));
  }

  /** Replaces the roots; false when the client was made without `roots` (the server was never told it has any). */
  setRoots(roots: MCPRoot[]): boolean {
    if (!this.roots) return false;
    this.roots = checkRoots(roots);
    return true;
  }

  /** Tracks a tool call in flight, for the default sampling model and the elicitation's `toolCall`. */
  async during<T>(toolName: string, context: ToolExecutionContext | undefined, work: () => Promise<T>): Promise<T> {
    const call: ActiveCall = { toolName, context, samplingRequests: 0 };
    this.active.add(call);
    try {
      return await work();
    } finally {
      this.active.delete(call);
    }
  }

  /** Whether the client is answering a server request now (timeouts wait meanwhile), and every change of that. */
  onPause(listener: (paused: boolean) => void): { paused: boolean; stop: () => void } {
    this.pauseListeners.add(listener);
    return { paused: this.answering > 0, stop: () => this.pauseListeners.delete(listener) };
  }

  /** Runs the user's side of a server request; the server's time does not run meanwhile. */
  private async answer<T>(work: () => Promise<T>): Promise<T> {
    if (this.answering++ === 0) for (const listener of this.pauseListeners) listener(true);
    try {
      return await work();
    } finally {
      if (--this.answering === 0) for (const listener of this.pauseListeners) listener(false);
    }
  }

  /**
   * The tool call a sampling request is counted against, its count raised; a refusal (an MCP error)
   * when none is in flight and that is not allowed, or when the call has made its
   * `maxRequestsPerToolCall`. MCP does not say which call a request serves: with several in flight,
   * the one that has sampled least (the earliest on a tie), so together they make at most their
   * number times the cap.
   */
  private samplingCall(sampling: ResolvedSamplingOptions): ActiveCall | undefined {
    let chosen: ActiveCall | undefined;
    for (const call of this.active) if (!chosen || call.samplingRequests < chosen.samplingRequests) chosen = call;
    if (!chosen) {
      if (sampling.allowOutsideToolCall) return undefined;
      throw samplingRefused(
        "no tool call of this client is in flight, and this client samples only for its tool calls (createMCPClient({ sampling: { allowOutsideToolCall } }).",
      );
    }
    if (chosen.samplingRequests >= sampling.maxRequestsPerToolCall)
      throw samplingRefused(
        `the tool call "${chosen.toolName}" has made its ${sampling.maxRequestsPerToolCall} sampling requests (createMCPClient({ sampling: { maxRequestsPerToolCall } }).`,
      );
    chosen.samplingRequests++;
    return chosen;
  }

  private soleCall(): ActiveCall | undefined {
    return this.active.size === 1 ? [...this.active][0] : undefined;
  }

  private modelForSampling(): LanguageModel {
    if (this.samplingModel) return this.samplingModel;
    const models = new Set([...this.active].flatMap((call) => (call.context?.model ? [call.context.model] : [])));
    if (models.size === 1) return [...models][0]!;
    throw new McpError(
      ErrorCode.InvalidRequest,
      models.size === 0
        ? "No model to sample with: no agent's tool call is waiting on this server. Give createMCPClient({ sampling: { model } })."
        : "No model to sample with: tool calls of agents with different models are waiting on this server. Give createMCPClient({ sampling: { model } }).",
    );
  }
}

/** A call in flight as the user's callbacks see it. */
function describeCall(call: ActiveCall): NonNullable<MCPElicitationRequest["toolCall"]> {
  return {
    toolName: call.toolName,
    toolCallId: call.context?.toolCallId ?? "",
    sessionId: call.context?.sessionId ?? "",
    ...(call.context?.runId ? { runId: call.context.runId } : {}),
    ...(call.context?.userId ? { userId: call.context.userId } : {}),
  };
}

function checkRoots(roots: unknown): MCPRoot[] {
  if (!Array.isArray(roots))
    throw new InvalidArgumentError({
      argument: "roots",
      value: roots,
      message: 'roots must be an array of { uri: "file:///...", name? }.',
    });
  return roots.map((root, index) => {
    const uri = (root as MCPRoot | undefined)?.uri;
    if (typeof uri !== "string" || !uri.startsWith("file://"))
      throw new InvalidArgumentError({
        argument: `roots[${index}].uri`,
        value: uri,
        message: `roots[${index}].uri must be a file:// URI (MCP roots are file URIs), e.g. "file:///home/me/project".`,
      });
    const name = (root as MCPRoot).name;
    if (name !== undefined && typeof name !== "string")
      throw new InvalidArgumentError({
        argument: `roots[${index}].name`,
        value: name,
        message: `roots[${index}].name must be a string.`,
      });
    return { uri, ...(name === undefined ? {} : { name }) };
  });
}
