import type { UserMessage } from "../../messages/agent-message";
import type { ToolCall } from "../../messages/agent-message";
import { describeContent } from "../../messages/content-text";
import type {
  LanguageModel,
  LanguageModelCall,
  LanguageModelResult,
  LanguageModelUsage,
} from "../../models/language-model";
import type { MemoryStrategyResult } from "../../strategies/memory-strategy";
import type { ToolCallOutcome } from "../../tools/execute-tool-call";
import {
  loadOpenTelemetryApi,
  missingApiError,
  type OpenTelemetryApi,
  type ResolvedTelemetry,
} from "./resolve-telemetry";
import type { TelemetryAttributes, TelemetryContext, TelemetryTracer } from "./telemetry-options";
import { genAIFinishReason, genAIInputMessages, genAIOutputMessages, genAISystemInstructions } from "./gen-ai-messages";
import { contextWithSpan, RootContext, suppressTracing, TracedSpan } from "./traced-span";

/** What a trace needs of its agent (an `AgentConfig`; structural, so `telemetry/` imports nothing of `agent/`). */
export interface TracedAgent {
  readonly name: string | undefined;
  readonly model: LanguageModel;
  readonly strategy: { readonly name: string };
  readonly maxSteps: number;
  readonly historyProvider: unknown;
  /** The agent's tools, for `gen_ai.tool.description`. */
  readonly tools: Readonly<Record<string, { readonly description?: string | undefined }>>;
}

/** What a trace records of a run's result (an `AgentResult`). */
export interface TracedResult {
  readonly text: string;
  readonly finishReason: string;
  readonly usage: LanguageModelUsage;
  readonly steps: readonly unknown[];
}

/** What a trace needs of its run (a `TurnRun`). */
export interface TracedRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly input: UserMessage["content"] | undefined;
  readonly inputText: string;
  readonly abortSignal: AbortSignal | undefined;
}

/** `SpanKind` of `@opentelemetry/api`. */
const KIND_INTERNAL = 0;
const KIND_CLIENT = 2;

/**
 * The spans of one traced run (docs/tracing.md): `invoke_agent <name>`, and
 * under it `agentcore.memory.read`, `agentcore.recall`, per step `agentcore.memory.fit` and
 * `chat <model>`, `execute_tool <tool>` per tool call, `agentcore.memory.write`. The attributes
 * follow the OpenTelemetry GenAI semantic conventions (`gen_ai.*`) plus agentcore's own
 * (`agentcore.*`). Each phase of the loop starts its span through `run.trace?.…`, so a run without
 * telemetry builds nothing.
 */
export class RunTrace {
  private readonly open = new Set<TracedSpan>();
  private steps = 0;

  private constructor(
    readonly settings: ResolvedTelemetry,
    private readonly tracer: TelemetryTracer,
    private readonly api: OpenTelemetryApi | undefined,
    private readonly config: TracedAgent,
    private readonly run: TracedRun,
    /** The `invoke_agent` span, parent of every other span of the run. */
    readonly root: TracedSpan,
  ) {}

  /**
   * Starts the run's span: on `telemetry.tracer`, or the global tracer of `@opentelemetry/api`
   * (loaded here, once per process). Its parent is the active context of the caller (a request's
   * span, say) when the API is installed.
   */
  static async start(settings: ResolvedTelemetry, config: TracedAgent, run: TracedRun): Promise<RunTrace> {
    const api = await loadOpenTelemetryApi();
    const tracer = settings.tracer ?? api?.trace.getTracer("agentcore");
    if (!tracer) throw missingApiError();
    const parent = api?.context.active() ?? new RootContext();
    const name = config.name;
    const attributes: TelemetryAttributes = {
      ...settings.attributes,
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": name,
      ...modelAttributes(config.model),
      "gen_ai.conversation.id": run.sessionId,
      "agentcore.session.id": run.sessionId,
      "agentcore.run.id": run.runId,
      "agentcore.strategy": config.strategy.name,
      "agentcore.max_steps": config.maxSteps,
    };
    const span = tracer.startSpan(
      name ? `invoke_agent ${name}` : "invoke_agent",
      { kind: KIND_INTERNAL, attributes: defined(attributes) },
      parent,
    );
    const root = new TracedSpan(span, contextWithSpan(api, parent, span), api, () => {}, recordsErrorText(settings));
    if (settings.recordInputs && root.recording && run.input !== undefined)
      root.set({ "gen_ai.input.messages": genAIInputMessages([{ role: "user", content: run.input }]) });
    return new RunTrace(settings, tracer, api, config, run, root);
  }

  /** Loading the history and the facts. */
  memoryRead(): TracedSpan {
    return this.child("agentcore.memory.read", {
      "agentcore.strategy": this.config.strategy.name,
      "agentcore.memory.source": this.config.historyProvider ? "provider" : "store",
    });
  }

  /** Ends `memoryRead` with what was read. */
  endMemoryRead(span: TracedSpan, read: { messages: number; partial: boolean; facts: number }): void {
    span.end({
      "agentcore.messages.loaded": read.messages,
      "agentcore.history.partial": read.partial,
      "agentcore.facts.count": read.facts,
    });
  }

  /** The memory provider's read of memories relevant to the input. */
  recall(provider: string): TracedSpan {
    const span = this.child("agentcore.recall", { "agentcore.recall.provider": provider });
    if (this.settings.recordInputs && span.recording) span.set({ "agentcore.recall.query": this.run.inputText });
    return span;
  }

  /** A step's strategy applied to the history: the window the model sees. */
  fit(): TracedSpan {
    return this.child("agentcore.memory.fit", {
      "agentcore.strategy": this.config.strategy.name,
      "agentcore.step": this.steps + 1,
    });
  }

  endFit(span: TracedSpan, window: MemoryStrategyResult): void {
    span.end({
      "agentcore.messages.kept": window.messages.length,
      "agentcore.messages.dropped": window.dropped.length,
      "agentcore.summarized": Boolean(window.summary),
    });
  }

  /**
   * A step's model call. The span carries the call's usage, whatever the provider, so the spans
   * that the provider's SDK or an instrumentation of it would start inside the call (the Anthropic
   * SDK's `anthropic.messages.create`, with its own `gen_ai.usage.*`) are suppressed: the call runs
   * (`within`, `iterateWithin`) in this span's context with tracing suppressed, and a dashboard
   * that sums chat spans counts each token once.
   */
  chat(model: LanguageModel, call: LanguageModelCall): TracedSpan {
    const span = this.child(
      `chat ${model.modelId}`,
      {
        "gen_ai.operation.name": "chat",
        ...modelAttributes(model),
        ...serverAttributes(model.baseURL),
        "gen_ai.request.temperature": call.temperature,
        "gen_ai.request.max_tokens": call.maxOutputTokens,
        // Structured output (the run's `output`): the semantic conventions' requested output type.
        "gen_ai.output.type": call.responseFormat ? "json" : undefined,
        "agentcore.step": ++this.steps,
      },
      KIND_CLIENT,
      true,
    );
    if (this.settings.recordInputs && span.recording) {
      span.set({
        "gen_ai.system_instructions": call.system ? genAISystemInstructions(call.system) : undefined,
        "gen_ai.input.messages": genAIInputMessages(call.messages),
      });
    }
    return span;
  }

  endChat(span: TracedSpan, model: LanguageModel, response: LanguageModelResult): void {
    if (this.settings.recordOutputs && span.recording) {
      span.set({
        "gen_ai.output.messages": genAIOutputMessages(
          { content: response.text, toolCalls: response.toolCalls },
          response.finishReason,
        ),
      });
    }
    span.end({
      "gen_ai.response.model": response.response?.modelId ?? model.modelId,
      "gen_ai.response.id": response.response?.id,
      "gen_ai.response.finish_reasons": [genAIFinishReason(response.finishReason)],
      ...usageAttributes(response.usage),
    });
  }

  /** One tool call. */
  tool(toolCall: ToolCall): TracedSpan {
    const tools = this.config.tools;
    const span = this.child(`execute_tool ${toolCall.name}`, {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": toolCall.name,
      "gen_ai.tool.call.id": toolCall.id,
      "gen_ai.tool.description": Object.hasOwn(tools, toolCall.name) ? tools[toolCall.name]!.description : undefined,
      "gen_ai.tool.type": "function",
      "agentcore.step": this.steps,
    });
    if (this.settings.recordInputs && span.recording)
      span.set({ "gen_ai.tool.call.arguments": JSON.stringify(toolCall.arguments) });
    return span;
  }

  /**
   * Ends a tool span; a failed call (sent back to the model as an error result) gets status ERROR,
   * `error.type` naming what failed (the class of the error `execute` threw).
   */
  endTool(span: TracedSpan, outcome: ToolCallOutcome): void {
    // A result given as parts is recorded as its text with a placeholder per image, never its bytes.
    const content = describeContent(outcome.content);
    if (this.settings.recordOutputs && span.recording) span.set({ "gen_ai.tool.call.result": content });
    if (outcome.isError) span.fail(new ToolCallFailure(outcome.errorType ?? "ToolCallError", content));
    else span.end();
  }

  /** Storing the turn (the store, or the `agent.memory()` provider) and giving it to the memory provider. */
  memoryWrite(messages: number): TracedSpan {
    return this.child("agentcore.memory.write", {
      "agentcore.messages.written": messages,
      "agentcore.memory.source": this.config.historyProvider ? "provider" : "store",
    });
  }

  /** Ends the run's span with its result, closing any span still open. */
  succeed(result: TracedResult): void {
    this.closeOpen((span) => span.end());
    if (this.settings.recordOutputs && this.root.recording)
      this.root.set({ "gen_ai.output.messages": genAIOutputMessages({ content: result.text }, result.finishReason) });
    this.root.end({
      "gen_ai.response.finish_reasons": [genAIFinishReason(result.finishReason)],
      ...usageAttributes(result.usage),
      "agentcore.steps": result.steps.length,
      "agentcore.finish_reason": result.finishReason,
    });
  }

  /** Ends the run's span, and every span still open, with the run's error (an abort marked as one). */
  fail(error: unknown): void {
    const aborted = this.run.abortSignal?.aborted === true;
    this.closeOpen((span) => span.fail(error, aborted));
    this.root.set({ "agentcore.finish_reason": aborted ? "aborted" : "error" });
    this.root.fail(error, aborted);
  }

  /** Ends whatever is still open as cancelled: the run's generator was closed before it finished. */
  cancel(): void {
    this.closeOpen((span) => span.cancel());
    this.root.cancel();
  }

  /** A span under the run's; `quiet`: the work run `within` it has tracing suppressed (the model call). */
  private child(name: string, attributes: TelemetryAttributes, kind = KIND_INTERNAL, quiet = false): TracedSpan {
    const parent: TelemetryContext = this.root.context;
    const span = this.tracer.startSpan(
      name,
      {
        kind,
        attributes: defined({ ...this.settings.attributes, "agentcore.session.id": this.run.sessionId, ...attributes }),
      },
      parent,
    );
    const context = contextWithSpan(this.api, parent, span);
    const traced = new TracedSpan(
      span,
      quiet ? suppressTracing(context) : context,
      this.api,
      (ended) => this.open.delete(ended),
      recordsErrorText(this.settings),
    );
    this.open.add(traced);
    return traced;
  }

  private closeOpen(close: (span: TracedSpan) => void): void {
    for (const span of [...this.open]) close(span);
  }
}

/** A tool call that failed (its error went back to the model), named after what failed. */
class ToolCallFailure extends Error {
  constructor(
    override readonly name: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Whether failures' messages go into spans: an error's text can hold a tool argument or a prompt a
 * provider echoes, so only when inputs and outputs are both recorded; otherwise only its type.
 */
function recordsErrorText(settings: ResolvedTelemetry): boolean {
  return settings.recordInputs && settings.recordOutputs;
}

function modelAttributes(model: LanguageModel): TelemetryAttributes {
  return {
    "gen_ai.provider.name": model.provider,
    "gen_ai.system": model.provider,
    "gen_ai.request.model": model.modelId,
  };
}

/** `server.address` and `server.port` of the API a model calls, from its base URL (the port its scheme implies when the URL has none). */
function serverAttributes(baseURL: string | undefined): TelemetryAttributes {
  if (baseURL === undefined) return {};
  try {
    const { hostname, port, protocol } = new URL(baseURL);
    return {
      "server.address": hostname.replace(/^\[(.*)\]$/, "$1"),
      "server.port": port ? Number(port) : protocol === "http:" ? 80 : 443,
    };
  } catch {
    return {};
  }
}

function defined(attributes: TelemetryAttributes): TelemetryAttributes {
  const result: TelemetryAttributes = {};
  for (const key in attributes) if (attributes[key] !== undefined) result[key] = attributes[key];
  return result;
}

/** A usage as `gen_ai.usage.*` attributes; the cache counts (included in the input tokens) when reported. */
function usageAttributes(usage: LanguageModelUsage): TelemetryAttributes {
  return {
    "gen_ai.usage.input_tokens": usage.inputTokens,
    "gen_ai.usage.output_tokens": usage.outputTokens,
    "gen_ai.usage.cache_read.input_tokens": usage.cachedInputTokens,
    "gen_ai.usage.cache_creation.input_tokens": usage.cacheCreationInputTokens,
  };
}
