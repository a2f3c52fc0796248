import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { factScopeId, type FactScope } from "../stores/fact-scope";
import { createMemoryTools, DEFAULT_FACT_LIMITS, MEMORY_TOOL_NAMES, type FactLimits } from "../tools/memory-tools";
import type { LanguageModel, ToolDefinition } from "../models/language-model";
import { resolveLanguageModel } from "../models/model-registry";
import type { MemoryProvider } from "../providers/memory-provider";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { resolveMemoryStrategy } from "../strategies/resolve-memory-strategy";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { adaptStore, type AdaptedStore } from "../stores/store-adapter";
import { validateSessionId } from "../stores/session-id";
import { toToolDefinitions } from "../tools/tool-definitions";
import type { ToolSet } from "../tools/tool";
import { AgentEventEmitter, type AgentEventListener, type AgentEventName } from "./agent-events";
import type { AgentOptions, AgentRunOptions } from "./agent-options";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { AgentStream } from "./agent-stream";
import { newId, runTurn, type TurnContext } from "./run-turn";
import { SessionQueue } from "./session-queue";

/** Longest user input accepted, in characters. */
const MAX_INPUT_LENGTH = 1_000_000;

/**
 * An LLM agent with memory: it keeps each session's conversation in its store, fits it into the
 * model's context window with its memory strategy, runs the tool loop, and persists every turn.
 */
export class Agent {
  readonly name: string | undefined;
  readonly model: LanguageModel;
  readonly memoryStore: MemoryStore;
  private readonly store: AdaptedStore;
  readonly strategy: IMemoryStrategy;
  /** The session used when a run names none. */
  readonly sessionId: string;
  private readonly options: AgentOptions;
  private readonly tools: ToolSet;
  private readonly toolDefinitions: ToolDefinition[];
  private readonly memoryProvider: MemoryProvider | undefined;
  private readonly maxSteps: number;
  private readonly factScope: FactScope;
  private readonly factLimits: Required<FactLimits>;
  private readonly events = new AgentEventEmitter();
  private readonly queue: SessionQueue;
  private readonly namedSessions = new Set<string>();

  constructor(options: AgentOptions) {
    if (options == null || typeof options !== "object") {
      throw new InvalidArgumentError({ argument: "options", message: "new Agent() needs an options object with at least `model`." });
    }
    if (options.model === undefined) {
      throw new InvalidArgumentError({
        argument: "model",
        message: 'new Agent() needs a `model`: a "provider/model" string such as "openai/gpt-4o", or a LanguageModel instance.',
      });
    }
    this.options = options;
    this.name = options.name;
    this.model = resolveLanguageModel(options.model);
    this.strategy = resolveMemoryStrategy(options.memory, {
      ...(options.maxMessages === undefined ? {} : { maxMessages: options.maxMessages }),
      ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    });
    this.memoryStore = options.memoryStore ?? new InMemoryStore();
    this.store = adaptStore(this.memoryStore);
    this.queue = SessionQueue.for(this.memoryStore);
    this.memoryProvider = options.memoryProvider;
    this.sessionId = options.sessionId === undefined ? `session-${newId()}` : validateSessionId(options.sessionId);
    this.maxSteps = positiveInteger(options.maxSteps, "maxSteps", 5);
    this.factScope = options.factScope ?? "session";
    if (this.factScope !== "session" && this.factScope !== "user") {
      throw new InvalidArgumentError({ argument: "factScope", value: this.factScope, message: 'factScope must be "session" or "user".' });
    }
    this.factLimits = { ...DEFAULT_FACT_LIMITS };
    for (const [name, value] of Object.entries(options.factLimits ?? {})) {
      if (!(name in DEFAULT_FACT_LIMITS)) {
        throw new InvalidArgumentError({ argument: `factLimits.${name}`, message: `Unknown fact limit "${name}". Known: ${Object.keys(DEFAULT_FACT_LIMITS).join(", ")}.` });
      }
      this.factLimits[name as keyof FactLimits] = positiveInteger(value, `factLimits.${name}`, 1);
    }
    this.tools = { ...(options.tools ?? {}) };
    if (options.enableMemoryTools) {
      for (const name of MEMORY_TOOL_NAMES) {
        if (Object.hasOwn(this.tools, name)) {
          throw new InvalidArgumentError({
            argument: `tools.${name}`,
            message: `The tool name "${name}" is taken by the memory tools (enableMemoryTools: true). Rename your tool.`,
          });
        }
      }
      Object.assign(
        this.tools,
        createMemoryTools({
          store: this.memoryStore,
          scopeOf: (context) => factScopeId(this.factScope, context),
          limits: this.factLimits,
          onChange: (fact, context) =>
            this.events.emit("memory:write", {
              sessionId: context.sessionId,
              runId: context.runId ?? "",
              ...(this.name === undefined ? {} : { agentName: this.name }),
              messages: [],
              messageIds: [],
              fact,
            }),
        }),
      );
    }
    this.toolDefinitions = toToolDefinitions(this.tools);
  }

  /** Runs one turn and resolves with its result once the answer is complete and stored. */
  async run(input: string | AgentRunOptions): Promise<AgentResult> {
    const generator = this.start(input, "generate");
    for (;;) {
      const next = await generator.next();
      if (next.done) return next.value;
    }
  }

  /** Runs one turn, streaming the answer as it is generated. */
  stream(input: string | AgentRunOptions): AgentStream {
    return new AgentStream(this.start(input, "stream"));
  }

  /** Listens to an event (DESIGN.md §5). Returns a function that removes the listener. */
  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): () => void {
    return this.events.on(name, listener);
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): void {
    this.events.off(name, listener);
  }

  private async *start(input: string | AgentRunOptions, mode: TurnContext["mode"]): AsyncGenerator<AgentStreamPart, AgentResult> {
    const runOptions = normaliseRunInput(input);
    const sessionId = runOptions.sessionId === undefined ? this.sessionId : validateSessionId(runOptions.sessionId);
    const userId = runOptions.userId === undefined ? undefined : validateSessionId(runOptions.userId, "userId");
    const facts = this.options.enableMemoryTools
      ? { scopeId: factScopeId(this.factScope, { sessionId, ...(userId === undefined ? {} : { userId }) }), maxPromptTokens: this.factLimits.maxPromptTokens }
      : undefined;
    const policy = this.options.concurrency ?? "queue";
    const release = await this.queue.acquire(sessionId, policy);
    let releaseStoreLock: (() => Promise<void>) | undefined;
    try {
      // The store's cross-process lock, where it has one: `queue` waits for a run elsewhere, `reject` fails at once.
      releaseStoreLock = await this.store.lockSession(sessionId, { timeoutMs: policy === "reject" ? 0 : (this.options.sessionLockTimeoutMs ?? 120_000) });
      await this.recordAgentName(sessionId);
      return yield* runTurn({
        runId: newId(),
        sessionId,
        ...(userId === undefined ? {} : { userId }),
        ...(this.name === undefined ? {} : { agentName: this.name }),
        input: runOptions.input,
        ...(runOptions.signal ? { abortSignal: runOptions.signal } : {}),
        model: this.model,
        ...(this.options.systemPrompt ? { systemPrompt: this.options.systemPrompt } : {}),
        strategy: this.strategy,
        store: this.store,
        tools: this.tools,
        toolDefinitions: this.toolDefinitions,
        maxSteps: this.maxSteps,
        ...(this.memoryProvider ? { memoryProvider: this.memoryProvider } : {}),
        ...(facts ? { facts } : {}),
        recallLimit: positiveInteger(this.options.recallLimit, "recallLimit", 5),
        memoryProviderTimeoutMs: positiveInteger(this.options.memoryProviderTimeoutMs, "memoryProviderTimeoutMs", 3000),
        callSettings: {
          ...(this.options.maxOutputTokens === undefined ? {} : { maxOutputTokens: this.options.maxOutputTokens }),
          ...(this.options.temperature === undefined ? {} : { temperature: this.options.temperature }),
          ...(this.options.maxRetries === undefined ? {} : { maxRetries: this.options.maxRetries }),
        },
        events: this.events,
        mode,
      });
    } finally {
      await releaseStoreLock?.().catch(() => {});
      release();
    }
  }

  /** Records this agent's name on the session once per Agent instance, where the store keeps metadata. */
  private async recordAgentName(sessionId: string): Promise<void> {
    if (this.name === undefined || !this.store.capabilities.updateSession || this.namedSessions.has(sessionId)) return;
    await this.store.updateSession(sessionId, { agentName: this.name });
    this.namedSessions.add(sessionId);
  }
}

function normaliseRunInput(input: string | AgentRunOptions): AgentRunOptions {
  const options = typeof input === "string" ? { input } : input;
  if (options == null || typeof options !== "object" || typeof options.input !== "string") {
    throw new InvalidArgumentError({
      argument: "input",
      value: input,
      message: 'run() takes the user message as a string, or { input: string, sessionId?, userId?, signal? }.',
    });
  }
  if (options.input.trim().length === 0) {
    throw new InvalidArgumentError({ argument: "input", value: options.input, message: "input must not be empty." });
  }
  if (options.input.length > MAX_INPUT_LENGTH) {
    throw new InvalidArgumentError({
      argument: "input",
      message: `input is ${options.input.length} characters long; the limit is ${MAX_INPUT_LENGTH}.`,
    });
  }
  return options;
}

function positiveInteger(value: number | undefined, argument: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new InvalidArgumentError({ argument, value, message: `${argument} must be a positive integer, got ${String(value)}.` });
  }
  return value;
}
