import type { ToolApprovalResponse } from "./agent-result";
import type { OutputSpec } from "./output-spec";
import type { UserContentPart } from "../messages/content-parts";
import type { MessageLimits } from "../messages/message-limits";
import type { AISDKLanguageModel } from "../models/ai-sdk/ai-sdk-types";
import type { LanguageModel } from "../models/language-model";
import type { MemoryProvider, MemoryRecord } from "../providers/memory-provider";
import type { IMemoryStrategy, MemoryStrategyName } from "../strategies/memory-strategy";
import type { MemoryStore } from "../stores/memory-store";
import type { FactScope } from "../stores/fact-scope";
import type { WorkingMemoryOptions } from "./working-memory-options";
import type { FactLimits } from "../tools/memory-tools";
import type { ToolSet } from "../tools/tool";
import type { TelemetryOptions } from "./telemetry/telemetry-options";
import type { ModelPricing } from "./model-pricing";
import type { GenerateTitleOptions } from "./title-options";
import type { PrepareStep } from "./prepare-step-options";
import type { StopWhen } from "./stop-conditions";

/**
 * Every option is checked once, by `new Agent()`: a bad value is an `InvalidArgumentError` naming it.
 * `Context`: the type of the app's context its runs give (`agent.run({ context })`), which tools and
 * `prepareStep` receive (docs/sessions-and-runs.md, "App context").
 */
export interface AgentOptions<Context = unknown> {
  /** Recorded as `agentName` in memory metadata and event payloads. */
  name?: string;
  /**
   * A `"provider/model"` string (e.g. `"openai/gpt-4o"`), a `LanguageModel` instance, or a model of
   * any AI SDK provider package (`openai("gpt-4o")` from `@ai-sdk/openai`, `google(...)`, ...).
   */
  model: string | LanguageModel | AISDKLanguageModel;
  /** The agent's instructions, sent as the system prompt on every call. */
  systemPrompt?: string;
  /**
   * What the model sees of the history: a strategy name or your own `IMemoryStrategy`.
   * @default "full"
   */
  memory?: MemoryStrategyName | IMemoryStrategy;
  /**
   * `sliding_window`: **turns** kept, despite the name (a turn is a user message and everything
   * that answers it: tool calls, tool results, the answer), so the model may see more messages
   * than this. Never cuts a turn. docs/context-strategies.md. @default 20
   */
  maxMessages?: number;
  /** `token_window`: history budget in tokens. @default 4000 */
  maxTokens?: number;
  /** Where sessions and facts are stored. @default new InMemoryStore() */
  memoryStore?: MemoryStore;
  /**
   * Registers `remember_fact`, `recall_fact` and `forget_fact` for the model, and renders the saved
   * facts into the system prompt on every later turn. @default false
   */
  enableMemoryTools?: boolean;
  /**
   * Where facts are kept: per session, or per user (`userId` on each run), so a user's facts
   * follow them into new sessions. @default "session"
   */
  factScope?: FactScope;
  /** Bounds on facts: count, key and value length, tokens in the prompt. */
  factLimits?: FactLimits;
  /**
   * A typed profile the model keeps with the `update_working_memory` tool, rendered into the system
   * prompt (docs/working-memory.md). @default none
   */
  workingMemory?: WorkingMemoryOptions;
  /**
   * Semantic memory consulted before each turn and given each finished turn: a recall provider,
   * `MemoryProvider<MemoryRecord>`, whose `read` returns records (`Mem0Provider`,
   * `VectorMemoryProvider`, `SemanticMemoryProvider`, a `CompositeMemory` of them). A provider whose
   * `read` returns messages (`BufferMemory`, the AgentLIB document's `MemoryProvider`) is the
   * agent's history instead: give it to `agent.memory()`.
   */
  memoryProvider?: MemoryProvider<MemoryRecord>;
  /**
   * Records a context report of every model call in the store (`saveContextReport`): the stored
   * messages in the window and those left out with the reason, the summary, facts and recalled
   * memories, the tokens of each part. Read them with `agentcore inspect` or
   * `createInspectorHandler` (docs/inspector.md). A report that cannot be stored is a `memory:error`,
   * except one refused because the run lost its session lock: the run then fails with
   * `SessionLockLostError`, as at a refused append. Off: nothing is recorded or counted. @default false
   */
  recordContext?: boolean;
  /** Most records of the memory provider rendered into the prompt. @default 5 */
  recallLimit?: number;
  /** How long the memory provider may take before the turn goes on without it. @default 3000 */
  memoryProviderTimeoutMs?: number;
  /** Tools the model may call. */
  tools?: ToolSet<Context>;
  /** Model calls per run (the tool loop): the hard cap, whatever `stopWhen` says. @default 5 */
  maxSteps?: number;
  /**
   * Stops the tool loop early: a condition, or a list (any true stops), asked after each step
   * whose tool calls ran, with `{ steps, lastStep, usage }`: `stepCountIs(n)`, `hasToolCall(name)`,
   * `tokenBudgetIs(n)` or your own. `result.stoppedBy` names the one that stopped the run. A run's
   * own `stopWhen` replaces it. (docs/sessions-and-runs.md, "Loop control")
   */
  stopWhen?: StopWhen;
  /**
   * Called before each model call with `{ stepNumber, steps, messages, model, context }`; may return
   * `{ model?, tools?, toolChoice?, system?, messages? }` to change that call: another model, a
   * subset of the tools by name, a tool choice, other instructions, or fewer of the window's
   * messages (only filtered or shortened, the pairing rule kept: a `PrepareStepError` otherwise).
   * With `recordContext`, the report records what it changed. (docs/sessions-and-runs.md, "Loop control")
   */
  prepareStep?: PrepareStep<Context>;
  /**
   * What a new user message does while tool calls of the session await approval (docs/approvals.md):
   * `"deny"` denies each call still waiting, with the stated reason that the user sent a new message
   * instead of answering (stored as the call's tool message, told to the model), and the turn goes
   * on with the message; `"reject"` refuses the message with a `ToolApprovalPendingError` and stores
   * nothing. Answers given in the same run (`approvals`) are applied first either way. @default "deny"
   */
  pendingApprovals?: "deny" | "reject";
  /** Default session of this agent. Without it, one id is generated per Agent instance. */
  sessionId?: string;
  /** Retries of the provider SDK on retryable failures (the one retry layer). Provider default when omitted. */
  maxRetries?: number;
  /**
   * Prompt caching: mark where each request's stable prefix ends (the system prompt, the facts
   * block, the end of the previous request, the last message), so providers with explicit cache
   * breakpoints (Anthropic's `cache_control`, at most 4 a request) cache it. `false` sends none.
   * Providers that cache by themselves (OpenAI) are unaffected (docs/prompt-caching.md).
   * @default true
   */
  cacheControl?: boolean;
  /** Upper bound on generated tokens per model call. Provider default when omitted. */
  maxOutputTokens?: number;
  temperature?: number;
  /**
   * What a second run on a session does while one is in progress: wait for it (`"queue"`), or
   * fail at once with a `SessionBusyError` (`"reject"`). @default "queue"
   */
  concurrency?: "queue" | "reject";
  /**
   * With `concurrency: "queue"` and a store that can lock a session across processes
   * (`lockSession`: file, SQLite, Redis, PostgreSQL stores), how long a run waits for a run on
   * the same session in another process before failing with a `SessionBusyError`. Whole
   * milliseconds, 0 or more. @default 120_000
   */
  sessionLockTimeoutMs?: number;
  /**
   * OpenTelemetry traces of each run: spans for the run, each model call and tool call, the
   * memory read and write and recall, with the GenAI semantic-convention attributes
   * (docs/tracing.md). Off when omitted: no span is started and nothing is built.
   */
  telemetry?: TelemetryOptions;
  /**
   * Size bounds of the messages this agent takes in (a run's input parts; `streamText`'s
   * messages): bytes per part and per message (docs/messages.md, "Limits"). Stored history read
   * back is not bounded again. @default { maxPartBytes: 20 MiB, maxMessageBytes: 50 MiB }
   */
  messageLimits?: MessageLimits;
  /**
   * What each model's tokens cost, per million, keyed by model id (`"gpt-4o-mini"`) or
   * `"provider/model"`: `{ "gpt-4o-mini": { inputPerMillion: 0.15, outputPerMillion: 0.6,
   * cachedInputPerMillion: 0.075 } }`. The usage ledger then keeps a `cost` for every call of a
   * priced model (`store.getUsage`, docs/threads.md); an unpriced model's calls cost 0. Checked at
   * construction: a missing price or an unknown field is an `InvalidArgumentError`.
   */
  pricing?: ModelPricing;
  /**
   * Gives each session a short title after its first completed turn (a session that has none: new,
   * or created before its first message), written to the store (`SessionEntry.title`), in the
   * background: it never delays or fails the run. The title model (`model`, else the agent's) is
   * asked with the user's first message (`prompt`: its instructions) while the answer is generated;
   * the title is written once the turn completed, only where the session still has none (a title
   * set with `updateSession` is never replaced), its usage added to the ledger. Told as `title:set`
   * or `title:error`; `agent.idle()` waits for it. Needs a store that keeps session metadata
   * (every built-in store) (docs/threads.md). @default false
   */
  generateTitle?: boolean | GenerateTitleOptions;
}

/**
 * The AgentCore document's name for the agent's options (its "Agent Memory Configuration
 * (AgentConfig)" table): the same type as `AgentOptions`. (`agent/agent-config.ts` has an
 * internal type of that name, the options once resolved; it is not exported.)
 */
export type AgentConfig<Context = unknown> = AgentOptions<Context>;

/**
 * The input of `agent.run()` and `agent.stream()`. `Context`: the agent's app context type; a run of
 * an agent typed with one must give `context`.
 */
export type AgentRunOptions<Context = unknown> = AgentRunBaseOptions & AppContextOption<Context>;

/**
 * The `context` option: the app's context of a run (a database handle, the signed-in user), given
 * as is to every tool's `execute` and `needsApproval` (`{ context }`) and to `prepareStep`. Never
 * stored, never sent to a model, never in a trace, an event or a context report. Required when the
 * agent is typed with a context (`new Agent<Context>()`), optional otherwise.
 */
export type AppContextOption<Context> = unknown extends Context ? { context?: Context } : { context: Context };

/** What `agent.run()` and `agent.stream()` take: the options, or (an agent without an app context type) the input text alone. */
export type AgentRunInput<Context = unknown> = unknown extends Context
  ? string | AgentRunOptions<Context>
  : AgentRunOptions<Context>;

/** The options of a run besides its app context (`AgentRunOptions`). */
export interface AgentRunBaseOptions {
  /**
   * The user's message: text, or text, image and file parts (`{ type: "image", image, mediaType? }`,
   * `{ type: "file", data, mediaType, filename? }`; docs/messages.md). Required, unless the run
   * only answers tool approvals (`approvals`) or regenerates (`regenerate`, which takes none).
   */
  input?: string | UserContentPart[];
  /**
   * The user's answers to tool calls that wait for approval in this session (`result.toolApprovals`
   * of the run that stopped for them): approved calls run, denied ones give the model the user's
   * `reason`, and the turn goes on (docs/approvals.md). An answer for a call that does not await
   * approval is a `ToolApprovalNotPendingError`.
   */
  approvals?: ToolApprovalResponse[];
  /** The conversation to continue. Defaults to the agent's `sessionId`. */
  sessionId?: string;
  /**
   * Answers the session's last user message again: the answer after it (every message after it)
   * is replaced by this run's, in one write once the run succeeded (a failed or aborted run changes
   * nothing). Takes no `input`. A session without a user message is a `NothingToRegenerateError`.
   * @default false
   */
  regenerate?: boolean;
  /**
   * Edits a stored user message: the id of a user message of the session; that message and every
   * message after it are replaced by `input` and this run's answer, in one write once the run
   * succeeded (a failed or aborted run changes nothing). An id the session does not hold is a
   * `MessageNotFoundError`; a message that is not the user's, an `InvalidArgumentError`.
   */
  replaceFrom?: string;
  /**
   * Who is asking; used by per-user facts and memory providers, and owns the session: a session this
   * run creates is this user's, and a session another user owns is refused with a
   * `SessionOwnershipError` before anything is read or stored (docs/stores.md, "Sessions owned by users").
   */
  userId?: string;
  /** Stops the model call, the tool loop and the run. */
  signal?: AbortSignal;
  /**
   * Structured output: the answer is an object of this zod schema, validated, in `result.object`
   * (docs/structured-output.md). Tools still run first; the object is the last step's answer,
   * stored as the assistant message's content (its JSON).
   */
  output?: OutputSpec;
  /**
   * The app's own fields for the `metadata` of every assistant message this run stores, beside
   * agentcore's (`metadata.agentcore`: model, usage, finish reason, duration): a plain object of
   * JSON values, at most 16 KiB as JSON (`MAX_MESSAGE_METADATA_BYTES`), without the reserved key
   * `agentcore`; anything else is an `InvalidArgumentError`. Never sent to a model;
   * `convertToUIMessages` gives it back as the UI message's `metadata` (docs/messages.md, "Message metadata").
   */
  metadata?: Record<string, unknown>;
  /** This run's stop conditions, in place of the agent's `stopWhen` (docs/sessions-and-runs.md, "Loop control"). */
  stopWhen?: StopWhen;
}
