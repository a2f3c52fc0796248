import { contentText } from "../messages/content-text";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModel } from "../models/language-model";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { factScopeId } from "../stores/fact-scope";
import type { MemoryStore } from "../stores/memory-store";
import type { StoreTurn } from "../stores/store-turn";
import { validateSessionId } from "../messages/session-id";
import { resolveAgentConfig, type AgentConfig, type InternalAgentOptions } from "./agent-config";
import { AgentEventEmitter, type AgentEventListener, type AgentEventName } from "./agent-events";
import type { AgentOptions, AgentRunInput, AgentRunOptions } from "./agent-options";
import { resolveStopWhen } from "./stop-conditions";
import type { AgentObjectResult, AgentResult, AgentStreamPart } from "./agent-result";
import { resolveOutput, type InferOutput, type OutputSpec } from "./output-spec";
import { AgentStream } from "./agent-stream";
import { newId } from "./new-id";
import { RunNotifier } from "./run-notifier";
import { normaliseRunInput } from "./run-input";
import { validateMetadataArgument } from "../messages/message-metadata";
import { runTurn } from "./run-turn";
import { checkInputParts } from "./check-input-parts";
import { rewindTurn } from "./rewind-turn";
import type { TurnRun } from "./turn-run";
import { SessionQueue } from "../stores/session-queue";
import type { LoadedHistory } from "./session-history";
import type { AgentMessage } from "../messages/agent-message";
import type { CompositeMemory } from "../providers/composite-memory";
import type { AnyMemoryProvider } from "../providers/memory-provider";
import { NO_MODEL, noModelError } from "./no-model";
import { traceRun } from "./telemetry/trace-run";
import type { PendingTitle } from "./pending-title";
import { RunStop } from "./run-stop";
import { stopRun } from "./stop-run";
import type { WorkingMemoryPartial, WorkingMemoryPatch } from "../tools/working-memory-patch";
import type { WorkingMemoryChange, WorkingMemorySnapshot } from "../tools/working-memory-profile";
import {
  getWorkingMemory,
  updateWorkingMemory,
  workingMemoryScopeId,
  type WorkingMemoryOwner,
} from "./working-memory-api";
import { RunWorkingMemory } from "./working-memory-run";

/**
 * What a caller inside the package (`streamText`) adds to a run's options: the history to run on
 * instead of the stored one (stateless; already parsed, without system messages, pairing restored),
 * the message a regenerate answers again (the user message at or before it, or the last one when
 * the session does not hold that id), and the ids the run gives the messages it creates: `user`,
 * the new user message's (the client's id, already checked; one the history the run reads holds
 * gives way to a new id), `assistant`, the run's first assistant message's (the id its UI stream
 * announces). `agent.run()` and `agent.stream()` have none of these: fresh ids, the stored history.
 */
export interface RunDescription {
  options: AgentRunOptions;
  history?: AgentMessage[] | undefined;
  regenerateFrom?: string | undefined;
  messageIds?: TurnRun["messageIds"];
  /** Told of the session's title being generated, when the run starts one (`streamText` announces it). */
  onTitle?: TurnRun["onTitle"];
}

/** The agent's entry for a described streamed run, set by `Agent`'s static block (it reaches its private `start`). */
let startDescribed: (
  agent: Agent<unknown, string | undefined>,
  description: RunDescription,
  textSink: TurnRun["textSink"],
) => AsyncGenerator<AgentStreamPart, AgentResult>;

/**
 * `streamText`'s entry on the agent: the run `description` says, streamed. Module-internal: not
 * exported from the package's index.
 */
export function streamDescribedRun(
  agent: Agent<unknown, string | undefined>,
  description: RunDescription,
): AgentStream {
  return new AgentStream((sink) => startDescribed(agent, description, sink));
}

/**
 * An LLM agent with memory: it keeps each session's conversation in its store, fits it into the
 * model's context window with its memory strategy, runs the tool loop, and persists every turn.
 * `Context`: the type of the app's context its runs give (`run({ context })`) to tools and
 * `prepareStep`; inferred from tools that read one, or given: `new Agent<{ db: Db }>({ ... })`.
 */
export class Agent<Context = unknown, DefaultSessionId extends string | undefined = string> {
  readonly name: string | undefined;
  readonly model: LanguageModel;
  readonly memoryStore: MemoryStore;
  readonly strategy: IMemoryStrategy;
  /**
   * The session used when a run names none: the `sessionId` option, else one id generated per
   * Agent instance. Undefined for an agent of `createAgent` without a `sessionId` (typed
   * `Agent<Context, string | undefined>`): each run without one gets a new session (the AgentLIB document's
   * rule: no memory between such calls).
   */
  readonly sessionId: DefaultSessionId;
  private config: AgentConfig;
  private readonly events = new AgentEventEmitter();
  private queue: SessionQueue;
  private readonly namedSessions = new Set<string>();
  /** The runs in progress, so the memory tools know a call's fact scope and tell its run's notifier. */
  private readonly runs = new Map<string, TurnRun>();
  /** Work that goes on after a run resolved: titles being generated and written. */
  private readonly background = new Set<Promise<unknown>>();

  constructor(options: AgentOptions<Context>) {
    // `createAgent` passes its marker in the options (InternalAgentOptions); users never do.
    this.config = resolveAgentConfig(options as unknown as InternalAgentOptions, {
      scopeOf: (context) => (context.runId === undefined ? undefined : this.runs.get(context.runId)?.factScopeId),
      onFactChange: (fact, context) =>
        this.runs
          .get(context.runId ?? "")
          ?.notifier.notify({ type: "memory:write", messages: [], messageIds: [], fact }),
      workingMemory: { runOf: (context) => this.runs.get(context.runId ?? "")?.workingMemory },
    });
    this.name = this.config.name;
    this.model = this.config.model;
    this.strategy = this.config.strategy;
    this.memoryStore = this.config.memoryStore;
    this.sessionId = this.config.sessionId as DefaultSessionId;
    this.queue = SessionQueue.for(this.memoryStore);
  }

  /**
   * Runs one turn and resolves with its result once the answer is complete and stored. With
   * `output` (a zod object schema), `result.object` is the answer, validated and typed by it.
   */
  run<Output extends OutputSpec>(
    input: AgentRunOptions<Context> & { output: Output },
  ): Promise<AgentObjectResult<InferOutput<Output>>>;
  run(input: AgentRunInput<Context>): Promise<AgentResult>;
  async run(input: AgentRunInput<Context>): Promise<AgentResult> {
    const generator = this.start(input as string | AgentRunOptions, "generate");
    for (;;) {
      const next = await generator.next();
      if (next.done) return next.value;
    }
  }

  /**
   * Runs one turn, streaming the answer as it is generated. With `output`, `partialObjectStream`
   * gives the object as it streams and `object` the validated one.
   */
  stream<Output extends OutputSpec>(
    input: AgentRunOptions<Context> & { output: Output },
  ): AgentStream<InferOutput<Output>>;
  stream(input: AgentRunInput<Context>): AgentStream;
  stream(input: AgentRunInput<Context>): AgentStream {
    return new AgentStream((sink) => this.start(input as string | AgentRunOptions, "stream", sink));
  }

  /**
   * Makes `provider` this agent's history (the AgentLIB document's `.memory(provider)`): before
   * each run, `provider.read({ sessionId })` gives the conversation, prepended to the messages sent
   * to the model; after it, `provider.write(conversation, { sessionId, agentName })` persists the
   * conversation with the new turn. The store then keeps facts only. Returns the agent.
   * (docs/architecture.md, "The run loop").
   */
  memory(provider: AnyMemoryProvider | CompositeMemory): this {
    if (
      provider == null ||
      typeof provider !== "object" ||
      typeof provider.read !== "function" ||
      typeof provider.write !== "function"
    ) {
      throw new InvalidArgumentError({
        argument: "memory",
        value: provider,
        message: "agent.memory() takes a memory provider: an object with read(options) and write(messages, options).",
      });
    }
    this.config = Object.freeze({ ...this.config, historyProvider: provider });
    // Runs on one session through this provider, from any agent, wait for each other: each reads the history the last one wrote.
    this.queue = SessionQueue.for(provider);
    return this;
  }

  /**
   * Resolves once the work runs leave behind them is done: the titles being generated
   * (`generateTitle`), told by then as `title:set` or `title:error`. Never rejects. Await it before a
   * process exits (a script, a test); a server need not.
   */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.all([...this.background]);
  }

  /**
   * Stops the session's running turn, in this process or any other on the same store (`stopRun`):
   * the text so far is stored, marked `finishReason: "stopped"`, and the session released. A
   * session with no running turn: nothing happens. Resolves once the stop is sent.
   */
  async stop(sessionId: string | DefaultSessionId = this.sessionId): Promise<void> {
    await stopRun({ sessionId: sessionId as string, memoryStore: this.memoryStore });
  }

  /**
   * A profile of this agent's working memory (the `workingMemory` option): `{ userId }` for scope
   * "user", `{ sessionId }` for scope "session". Its value (`initial` with the stored fields over
   * it), when and by which message each field last changed, and the last 20 changes.
   */
  async getWorkingMemory<Profile = Record<string, unknown>>(
    owner: WorkingMemoryOwner,
  ): Promise<WorkingMemorySnapshot<WorkingMemoryPartial<Profile>>> {
    return (await getWorkingMemory(this.config.store, this.config.workingMemory, owner)) as WorkingMemorySnapshot<
      WorkingMemoryPartial<Profile>
    >;
  }

  /**
   * Changes a profile as the model's `update_working_memory` does: `set` merges, `delete` removes
   * (dotted paths). An invalid patch is an `InvalidArgumentError` listing its issues and writes nothing.
   * Resolves to the changes made.
   */
  async updateWorkingMemory<Profile = Record<string, unknown>>(
    owner: WorkingMemoryOwner,
    patch: WorkingMemoryPatch<Profile>,
  ): Promise<WorkingMemoryChange[]> {
    return await updateWorkingMemory(this.config.store, this.config.workingMemory, owner, patch as WorkingMemoryPatch);
  }

  /** Listens to an event (docs/architecture.md, "Events"). Returns a function that removes the listener. */
  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): () => void {
    return this.events.on(name, listener);
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): void {
    this.events.off(name, listener);
  }

  static {
    startDescribed = (agent, { options, ...described }, textSink) =>
      agent.start(options, "stream", textSink, described);
  }

  private async *start(
    input: string | AgentRunOptions,
    mode: TurnRun["mode"],
    textSink?: TurnRun["textSink"],
    described?: Omit<RunDescription, "options">,
  ): AsyncGenerator<AgentStreamPart, AgentResult> {
    const run = this.resolveRun(input, mode, textSink, described);
    const config = this.config;
    // A part the model cannot take is refused before the session is touched (nothing stored, nothing replaced).
    await checkInputParts(config.model, run.input);
    // Traced (the telemetry option): the run's span covers waiting for the session too.
    return yield* config.telemetry
      ? traceRun({ ...config, telemetry: config.telemetry }, run, (traced) => this.runOnSession(traced))
      : this.runOnSession(run);
  }

  /** Runs the turn once the session is this run's (the in-process queue, then the store's turn: its lock). */
  private async *runOnSession(run: TurnRun): AsyncGenerator<AgentStreamPart, AgentResult> {
    const { store, concurrency, sessionLockTimeoutMs, strategy, historyProvider, memoryProvider } = this.config;
    // Waiting for the session honours the run's signal: an abort settles the run at once.
    const release = await this.queue.acquire(run.sessionId, concurrency, run.abortSignal);
    let turn: StoreTurn | undefined;
    let stop: RunStop | undefined;
    this.runs.set(run.runId, run);
    try {
      // The store's cross-process lock, where it has one: `queue` waits for a run elsewhere, `reject` fails at once.
      turn = await store.openTurn(run.sessionId, {
        timeoutMs: concurrency === "reject" ? 0 : sessionLockTimeoutMs,
        ...(run.abortSignal ? { signal: run.abortSignal } : {}),
        // A run on the stored history reads the tail its strategy needs, with the lock where the store can
        // (a regenerate or an edit too: it reads further back only when the message it starts from is not in it).
        ...(run.history === undefined && historyProvider === undefined ? { tailLimit: strategy.historyLimit } : {}),
        // The memory provider's write comes after the last append, still holding the session.
        releaseWithLast: memoryProvider === undefined,
        // A session on the store is the user's: created theirs, refused when another's (before any read).
        ...(run.userId !== undefined && run.history === undefined && historyProvider === undefined
          ? { userId: run.userId }
          : {}),
      });
      if (run.rewind) ({ turn, run } = await rewindTurn(turn, run));
      // The session's turn runs: a stop asked for it from anywhere reaches it from now on.
      stop = new RunStop(run.sessionId, run.abortSignal);
      await stop.watch(store);
      run = { ...run, abortSignal: stop.signal, stop };
      await this.recordAgentName(run.sessionId);
      return yield* runTurn(this.config, run, turn);
    } finally {
      this.runs.delete(run.runId);
      stop?.dispose();
      await turn?.release().catch(() => {});
      release();
    }
  }

  /** The run's own record: its input checked and its ids validated, once. */
  private resolveRun(
    input: string | AgentRunOptions,
    mode: TurnRun["mode"],
    textSink: TurnRun["textSink"] | undefined,
    described: Omit<RunDescription, "options"> = {},
  ): TurnRun {
    const runOptions = normaliseRunInput(input, this.config.messageLimits);
    if (this.model === NO_MODEL) throw noModelError();
    const sessionId =
      runOptions.sessionId === undefined
        ? (this.sessionId ?? `session-${newId()}`)
        : validateSessionId(runOptions.sessionId);
    const userId = runOptions.userId === undefined ? undefined : validateSessionId(runOptions.userId, "userId");
    const runId = newId();
    const facts = this.config.facts;
    // Stateless `streamText`: the run goes on the history given instead of the stored one.
    const history: LoadedHistory | undefined = described.history && {
      messages: described.history,
      offset: 0,
      partial: false,
    };
    const rewind = runRewind(
      runOptions,
      described.regenerateFrom,
      history !== undefined || this.config.historyProvider !== undefined,
    );
    const { messageIds } = described;
    const onTitle = (title: PendingTitle) => {
      const written = title.written.finally(() => this.background.delete(written));
      this.background.add(written);
      described.onTitle?.(title);
    };
    const workingMemory = this.config.workingMemory;
    return {
      runId,
      sessionId,
      userId,
      input: runOptions.input,
      inputText: runOptions.input === undefined ? "" : contentText(runOptions.input),
      approvals: runOptions.approvals ?? [],
      ...(rewind ? { rewind } : {}),
      ...(messageIds ? { messageIds } : {}),
      abortSignal: runOptions.signal,
      factScopeId: facts
        ? factScopeId(facts.scope, { sessionId, ...(userId === undefined ? {} : { userId }) }, { validated: true })
        : undefined,
      ...(workingMemory
        ? {
            workingMemory: new RunWorkingMemory(
              this.config.store,
              workingMemory,
              workingMemoryScopeId(workingMemory, sessionId, userId),
              sessionId,
            ),
          }
        : {}),
      mode,
      history,
      output: runOptions.output === undefined ? undefined : resolveOutput(runOptions.output),
      metadata: runOptions.metadata === undefined ? undefined : validateMetadataArgument(runOptions.metadata),
      context: runOptions.context,
      stopWhen: resolveStopWhen(runOptions.stopWhen, "stopWhen"),
      notifier: new RunNotifier(
        this.events,
        { sessionId, runId, ...(this.name === undefined ? {} : { agentName: this.name }) },
        // Stream parts are built only for a stream: `run()` reads none.
        mode === "stream",
      ),
      textSink,
      onTitle,
    };
  }

  /** Records this agent's name on the session once per Agent instance, where the store keeps metadata. */
  private async recordAgentName(sessionId: string): Promise<void> {
    if (this.name === undefined || !this.config.store.capabilities.updateSession || this.namedSessions.has(sessionId))
      return;
    await this.config.store.updateSession(sessionId, { agentName: this.name });
    this.namedSessions.add(sessionId);
  }
}

/** A run's `rewind` from its options (`regenerate`, `replaceFrom`); refused on a history the store does not hold. */
function runRewind(options: AgentRunOptions, from: string | undefined, historyElsewhere: boolean): TurnRun["rewind"] {
  if (!options.regenerate && options.replaceFrom === undefined) return undefined;
  if (historyElsewhere) {
    throw new InvalidArgumentError({
      argument: options.regenerate ? "regenerate" : "replaceFrom",
      message:
        "regenerate and replaceFrom replace messages of the store's history: they need the agent's memoryStore to hold the conversation (not agent.memory(provider), not a stateless streamText).",
    });
  }
  if (options.replaceFrom !== undefined) return { replaceFrom: options.replaceFrom };
  return from === undefined ? {} : { regenerateFrom: from };
}
