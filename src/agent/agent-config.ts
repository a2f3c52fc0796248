import { booleanOption, integerOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModel, LanguageModelCall, ToolDefinition } from "../models/language-model";
import { resolveLanguageModel } from "../models/registry/model-registry";
import { holdsConversationMemory, type CompositeMemory } from "../providers/composite-memory";
import type { AnyMemoryProvider, RecallMemoryProvider } from "../providers/memory-provider";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { resolveMemoryStrategy } from "../strategies/resolve-memory-strategy";
import { factScopeId, type FactScope } from "../stores/fact-scope";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { validateSessionId } from "../messages/session-id";
import { resolveMessageLimits, type ResolvedMessageLimits } from "../messages/message-limits";
import { backendOf } from "../stores/backend-of";
import type { StoreBackend } from "../stores/store-backend";
import {
  createMemoryTools,
  DEFAULT_FACT_LIMITS,
  FACT_CHANGING_TOOL_NAMES,
  MEMORY_TOOL_NAMES,
  type FactChange,
  type FactLimits,
} from "../tools/memory-tools";
import type { ToolExecutionContext, ToolSet } from "../tools/tool";
import { toToolDefinitions } from "../tools/tool-definitions";
import type { AgentOptions } from "./agent-options";
import { newId } from "./new-id";
import { NO_MODEL } from "./no-model";
import { resolveTelemetry, type ResolvedTelemetry } from "./telemetry/resolve-telemetry";
import { resolvePricing, type ModelPricing } from "./model-pricing";
import { resolveTitling, type ResolvedTitling } from "./title-options";
import type { PrepareStep } from "./prepare-step-options";
import { resolveStopWhen, type StopCondition } from "./stop-conditions";
import { resolveWorkingMemory, type ResolvedWorkingMemory } from "./working-memory-config";
import { addWorkingMemoryTool, type WorkingMemoryHooks } from "./working-memory-api";

/**
 * `createAgent`'s options carry this key: the AgentLIB document's rules (a new session per run
 * without a sessionId; the model may come later). Internal: not exported from the package.
 */
export const agentlibRules = Symbol("agentcore.agentlibRules");

/**
 * The options `new Agent()` receives, with the internal marker `createAgent` sets. Inside, the app
 * context is `unknown` (its type is checked where the agent is typed, `new Agent<Context>()`).
 */
export type InternalAgentOptions = AgentOptions & { [agentlibRules]?: true };

/** An agent's options, resolved and validated once at construction (frozen). */
export interface AgentConfig {
  readonly name: string | undefined;
  readonly model: LanguageModel;
  readonly systemPrompt: string | undefined;
  readonly strategy: IMemoryStrategy;
  readonly memoryStore: MemoryStore;
  readonly store: StoreBackend;
  readonly memoryProvider: RecallMemoryProvider | undefined;
  /** The provider given to `agent.memory()`: the agent's history instead of the store (docs/architecture.md, "The run loop"). */
  /** A `CompositeMemory` of conversation and recall providers reads messages too (its entries are both kinds). */
  readonly historyProvider: AnyMemoryProvider | CompositeMemory | undefined;
  /** The session used when a run names none; undefined: a new session per run (`createAgent`'s rule). */
  readonly sessionId: string | undefined;
  readonly tools: ToolSet;
  readonly toolDefinitions: ToolDefinition[];
  /** Names of the tools after which the facts are read again (the memory tools that change them). */
  readonly factChangingTools: ReadonlySet<string>;
  readonly maxSteps: number;
  /** The `stopWhen` option as a list; undefined when not set (nothing is asked). */
  readonly stopWhen: readonly StopCondition[] | undefined;
  /** The `prepareStep` option. */
  readonly prepareStep: PrepareStep | undefined;
  /** What a new message does to calls awaiting approval (the `pendingApprovals` option). */
  readonly pendingApprovals: "deny" | "reject";
  /** Set when memory tools are on. */
  readonly facts: { readonly scope: FactScope; readonly maxPromptTokens: number } | undefined;
  readonly factLimits: Required<FactLimits>;
  readonly recallLimit: number;
  /** Record a context report of each model call (the `recordContext` option). */
  readonly recordContext: boolean;
  readonly memoryProviderTimeoutMs: number;
  readonly concurrency: "queue" | "reject";
  readonly sessionLockTimeoutMs: number;
  readonly callSettings: Pick<LanguageModelCall, "maxOutputTokens" | "temperature" | "maxRetries">;
  /** Whether calls carry prompt-cache breakpoints (the `cacheControl` option). */
  readonly cacheControl: boolean;
  /** Set when runs are traced (the `telemetry` option). */
  readonly telemetry: ResolvedTelemetry | undefined;
  /** Size bounds of a run's input (the `messageLimits` option). */
  readonly messageLimits: ResolvedMessageLimits;
  /** Set when sessions get a generated title (the `generateTitle` option). */
  readonly titling: ResolvedTitling | undefined;
  /** Prices per model, for the usage ledger's cost (the `pricing` option). */
  readonly pricing: Readonly<ModelPricing> | undefined;
  /** Set when the agent keeps a working memory (the `workingMemory` option). */
  readonly workingMemory: ResolvedWorkingMemory | undefined;
}

/** What the agent tells the memory tools. */
export interface MemoryToolHooks {
  /** The fact scope of a tool call's run, when the agent already knows it (else worked out from the call's ids). */
  scopeOf: (context: ToolExecutionContext) => string | undefined;
  /** Told of each fact the memory tools set or delete. */
  onFactChange: (change: FactChange, context: ToolExecutionContext) => void;
  /** The working memory of a tool call's run (`update_working_memory`). */
  workingMemory?: WorkingMemoryHooks;
}

/**
 * Resolves and validates an agent's options: every bad value is an `InvalidArgumentError` here,
 * never on a run.
 */
export function resolveAgentConfig(options: InternalAgentOptions, hooks: MemoryToolHooks): AgentConfig {
  if (options == null || typeof options !== "object") {
    throw new InvalidArgumentError({
      argument: "options",
      message: "new Agent() needs an options object with at least `model`.",
    });
  }
  const agentlib = options[agentlibRules] === true;
  if (options.model === undefined && !agentlib) {
    throw new InvalidArgumentError({
      argument: "model",
      message:
        'new Agent() needs a `model`: a "provider/model" string such as "openai/gpt-4o", or a LanguageModel instance.',
    });
  }
  const model = options.model === undefined ? NO_MODEL : resolveLanguageModel(options.model);
  const strategy = resolveMemoryStrategy(options.memory, {
    ...(options.maxMessages === undefined ? {} : { maxMessages: options.maxMessages }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  });
  const memoryStore = options.memoryStore ?? new InMemoryStore();
  const factScope = options.factScope ?? "session";
  if (factScope !== "session" && factScope !== "user") {
    throw new InvalidArgumentError({
      argument: "factScope",
      value: factScope,
      message: 'factScope must be "session" or "user".',
    });
  }
  const factLimits = { ...DEFAULT_FACT_LIMITS };
  for (const [name, value] of Object.entries(options.factLimits ?? {})) {
    if (!(name in DEFAULT_FACT_LIMITS)) {
      throw new InvalidArgumentError({
        argument: `factLimits.${name}`,
        message: `Unknown fact limit "${name}". Known: ${Object.keys(DEFAULT_FACT_LIMITS).join(", ")}.`,
      });
    }
    factLimits[name as keyof FactLimits] = integerOption(value, `factLimits.${name}`, 1);
  }
  const concurrency = options.concurrency ?? "queue";
  if (concurrency !== "queue" && concurrency !== "reject") {
    throw new InvalidArgumentError({
      argument: "concurrency",
      value: concurrency,
      message: `concurrency must be "queue" or "reject", got ${JSON.stringify(concurrency)}.`,
    });
  }
  const sessionLockTimeoutMs = options.sessionLockTimeoutMs ?? 120_000;
  if (!Number.isInteger(sessionLockTimeoutMs) || sessionLockTimeoutMs < 0) {
    throw new InvalidArgumentError({
      argument: "sessionLockTimeoutMs",
      value: sessionLockTimeoutMs,
      message: `sessionLockTimeoutMs must be a whole number of milliseconds, 0 or more, got ${String(sessionLockTimeoutMs)}.`,
    });
  }

  const tools: ToolSet = { ...(options.tools ?? {}) };
  if (options.enableMemoryTools) {
    for (const name of MEMORY_TOOL_NAMES) {
      if (Object.hasOwn(tools, name)) {
        throw new InvalidArgumentError({
          argument: `tools.${name}`,
          message: `The tool name "${name}" is taken by the memory tools (enableMemoryTools: true). Rename your tool.`,
        });
      }
    }
    Object.assign(
      tools,
      createMemoryTools({
        store: memoryStore,
        scopeOf: (context) => hooks.scopeOf(context) ?? factScopeId(factScope, context),
        limits: factLimits,
        onChange: hooks.onFactChange,
      }),
    );
  }
  const workingMemory = resolveWorkingMemory(options.workingMemory);
  if (workingMemory) addWorkingMemoryTool(tools, workingMemory, memoryStore, hooks.workingMemory);
  return Object.freeze({
    name: options.name,
    model,
    systemPrompt: options.systemPrompt || undefined,
    strategy,
    memoryStore,
    store: backendOf(memoryStore),
    memoryProvider: recallProvider(options.memoryProvider),
    historyProvider: undefined,
    sessionId:
      options.sessionId !== undefined
        ? validateSessionId(options.sessionId)
        : agentlib
          ? undefined
          : `session-${newId()}`,
    tools,
    toolDefinitions: toToolDefinitions(tools),
    factChangingTools: new Set<string>(options.enableMemoryTools ? FACT_CHANGING_TOOL_NAMES : []),
    maxSteps: integerOption(options.maxSteps, "maxSteps", 5),
    stopWhen: resolveStopWhen(options.stopWhen, "stopWhen"),
    prepareStep: prepareStepOption(options.prepareStep),
    pendingApprovals: pendingApprovalsOption(options.pendingApprovals),
    facts: options.enableMemoryTools
      ? Object.freeze({ scope: factScope, maxPromptTokens: factLimits.maxPromptTokens })
      : undefined,
    factLimits,
    recallLimit: integerOption(options.recallLimit, "recallLimit", 5),
    recordContext: options.recordContext === true,
    memoryProviderTimeoutMs: integerOption(options.memoryProviderTimeoutMs, "memoryProviderTimeoutMs", 3000),
    concurrency,
    sessionLockTimeoutMs,
    callSettings: Object.freeze({
      ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
      ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
    }),
    cacheControl: booleanOption(options.cacheControl, "cacheControl", true),
    pricing: resolvePricing(options.pricing),
    titling: resolveTitling(options.generateTitle, model),
    telemetry: resolveTelemetry(options.telemetry),
    messageLimits: resolveMessageLimits({
      maxPartBytes: integerOption(options.messageLimits?.maxPartBytes, "messageLimits.maxPartBytes", undefined),
      maxMessageBytes: integerOption(
        options.messageLimits?.maxMessageBytes,
        "messageLimits.maxMessageBytes",
        undefined,
      ),
    }),
    workingMemory,
  });
}

/**
 * The `memoryProvider` option: recall, records relevant to the input rendered beside the history.
 * A conversation memory (`BufferMemory`, `SummarizingMemory`, any strategy with read/write, or a
 * `CompositeMemory` holding one) reads back the conversation itself, which the agent already
 * sends from its store: refused, since the model would get every message twice.
 */
function recallProvider(provider: RecallMemoryProvider | undefined): RecallMemoryProvider | undefined {
  if (provider === undefined) return undefined;
  const conversation =
    typeof (provider as { apply?: unknown }).apply === "function" || holdsConversationMemory(provider);
  if (conversation) {
    const name = (provider as object).constructor?.name || provider.type;
    throw new InvalidArgumentError({
      argument: "memoryProvider",
      value: provider.type,
      message: `memoryProvider recalls records beside the history; ${name} is a conversation memory (its read gives the conversation, which the agent already sends from its memoryStore), so the model would get every message twice. Pass it as the agent's history instead: new Agent({ memory: new BufferMemory({ maxMessages: 40 }) }) for a window over the store, or agent.memory(provider) (createAgent(...).memory(...)) to keep the conversation in it.`,
    });
  }
  return provider;
}

function prepareStepOption(value: unknown): PrepareStep | undefined {
  if (value === undefined || typeof value === "function") return value as PrepareStep | undefined;
  throw new InvalidArgumentError({
    argument: "prepareStep",
    value,
    message:
      "prepareStep must be a function ({ stepNumber, steps, messages, model, context }) => { model?, tools?, toolChoice?, system?, messages? } | undefined.",
  });
}

function pendingApprovalsOption(value: unknown): "deny" | "reject" {
  if (value === undefined) return "deny";
  if (value === "deny" || value === "reject") return value;
  throw new InvalidArgumentError({
    argument: "pendingApprovals",
    value,
    message: 'pendingApprovals must be "deny" (a new message denies the calls awaiting approval) or "reject".',
  });
}
