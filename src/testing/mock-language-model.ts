import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { FilePart, ImagePart } from "../messages/content-parts";
import type {
  FinishReason,
  LanguageModel,
  LanguageModelCall,
  LanguageModelResult,
  LanguageModelStreamPart,
} from "../models/language-model";

/** One scripted answer of a `MockLanguageModel`. */
export interface MockResponse {
  text?: string;
  /** A structured answer (a run with `output`): sent as its JSON text, instead of `text`. */
  object?: unknown;
  toolCalls?: { id?: string; name: string; arguments: object }[];
  usage?: { inputTokens: number; outputTokens: number };
  finishReason?: FinishReason;
  /** Throw this instead of answering (to script provider failures). */
  error?: unknown;
}

/** A call as the mock model received it. */
export interface MockCall {
  system?: string;
  messages: AgentMessage[];
  tools: { name: string; description?: string; parameters: object }[];
  /** Whether the call came through `doStream`. */
  stream: boolean;
  /** The JSON answer asked for (a run with `output`): its schema, name and description. */
  responseFormat?: LanguageModelCall["responseFormat"];
  /** The tool choice asked for (`prepareStep`'s `toolChoice`), when one was. */
  toolChoice?: LanguageModelCall["toolChoice"];
}

export interface MockLanguageModelOptions {
  /** Answers consumed one per call, or a function of the call (and its 0-based index). */
  responses: MockResponse[] | ((call: MockCall, index: number) => MockResponse | Promise<MockResponse>);
  /** @default "mock" */
  provider?: string;
  /** @default "mock-model" */
  modelId?: string;
  /** Characters per streamed text delta. @default 4 */
  chunkSize?: number;
  /** Milliseconds to wait between streamed deltas (abort tests). @default 0 */
  chunkDelayMs?: number;
  /**
   * Which image and file parts of user messages the model takes (`LanguageModel.supportsPart`).
   * @default none declared: every part is taken
   */
  supportsPart?: (part: ImagePart | FilePart) => boolean | PromiseLike<boolean>;
}

/**
 * A scripted model for tests and offline demos. Records every call in `calls` (deep copies, so
 * tests can assert on the exact request) and answers from its script; streams text in several
 * deltas. Honours the abort signal.
 */
export class MockLanguageModel implements LanguageModel {
  readonly provider: string;
  readonly modelId: string;
  /** Every call received, in order. */
  readonly calls: MockCall[] = [];
  readonly supportsPart?: (part: ImagePart | FilePart) => boolean | PromiseLike<boolean>;
  private readonly options: MockLanguageModelOptions;
  private toolCallCounter = 0;

  constructor(options: MockLanguageModelOptions) {
    if (!options || (!Array.isArray(options.responses) && typeof options.responses !== "function")) {
      throw new InvalidArgumentError({
        argument: "responses",
        message:
          "MockLanguageModel needs `responses`: an array of { text?, toolCalls?, usage? } or a function of the call.",
      });
    }
    this.options = options;
    this.provider = options.provider ?? "mock";
    this.modelId = options.modelId ?? "mock-model";
    if (options.supportsPart) this.supportsPart = options.supportsPart;
  }

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const response = await this.next(call, false);
    throwIfAborted(call.abortSignal);
    return this.toResult(response);
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const response = await this.next(call, true);
    const result = this.toResult(response);
    const size = Math.max(1, this.options.chunkSize ?? 4);
    for (let offset = 0; offset < result.text.length; offset += size) {
      throwIfAborted(call.abortSignal);
      if (this.options.chunkDelayMs) await delay(this.options.chunkDelayMs, call.abortSignal);
      yield { type: "text-delta", delta: result.text.slice(offset, offset + size) };
    }
    throwIfAborted(call.abortSignal);
    for (const toolCall of result.toolCalls) {
      yield {
        type: "tool-call-delta",
        toolCallId: toolCall.id,
        toolName: toolCall.name,
        argumentsDelta: JSON.stringify(toolCall.arguments),
      };
      yield { type: "tool-call", toolCall };
    }
    yield { type: "finish", finishReason: result.finishReason, usage: result.usage };
  }

  private async next(call: LanguageModelCall, stream: boolean): Promise<MockResponse> {
    throwIfAborted(call.abortSignal);
    const recorded: MockCall = {
      ...(call.system === undefined ? {} : { system: call.system }),
      messages: structuredClone(call.messages),
      tools: structuredClone(call.tools),
      stream,
      ...(call.responseFormat ? { responseFormat: structuredClone(call.responseFormat) } : {}),
      ...(call.toolChoice === undefined ? {} : { toolChoice: structuredClone(call.toolChoice) }),
    };
    const index = this.calls.length;
    this.calls.push(recorded);
    const { responses } = this.options;
    let response: MockResponse | undefined;
    if (typeof responses === "function") {
      response = await responses(recorded, index);
    } else {
      response = responses[index];
      if (!response) {
        throw new InvalidArgumentError({
          argument: "responses",
          message: `MockLanguageModel has ${responses.length} scripted response(s) but received call ${index + 1}. Add a response for it.`,
        });
      }
    }
    if (response.error !== undefined) throw response.error;
    return response;
  }

  private toResult(response: MockResponse): LanguageModelResult {
    const toolCalls: ToolCall[] = (response.toolCalls ?? []).map((toolCall) => ({
      id: toolCall.id ?? `call_mock_${++this.toolCallCounter}`,
      name: toolCall.name,
      arguments: cloneArguments(toolCall.arguments as Record<string, unknown>),
    }));
    const text = response.object !== undefined ? JSON.stringify(response.object) : (response.text ?? "");
    const inputTokens = response.usage?.inputTokens ?? 0;
    const outputTokens = response.usage?.outputTokens ?? 0;
    return {
      text,
      toolCalls,
      finishReason: response.finishReason ?? (toolCalls.length ? "tool-calls" : "stop"),
      usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
      response: { modelId: this.modelId },
    };
  }
}

/**
 * A copy of scripted arguments, so a run cannot change the script; arguments nested too deep to
 * clone (a structured clone fails near 2,000 levels) are given as they are, as a model would
 * give them: the agent bounds their depth.
 */
function cloneArguments(args: Record<string, unknown>): Record<string, unknown> {
  try {
    return structuredClone(args);
  } catch (error) {
    if (error instanceof RangeError) return args;
    throw error;
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw signal.reason instanceof Error
      ? signal.reason
      : Object.assign(new Error("The operation was aborted."), { name: "AbortError" });
  }
}

function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error("The operation was aborted."));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
