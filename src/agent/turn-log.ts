import type { AgentMessage, ToolCall } from "../messages/agent-message";
import { addUsage, emptyUsage, type FinishReason, type LanguageModelUsage } from "../models/language-model";
import type { StoreTurn } from "../stores/store-turn";
import { addTotals, emptyTotals, isEmptyTotals, type UsageTotals } from "../stores/usage-totals";
import { ledgerTotals, type ModelPricing, type PricedModel } from "./model-pricing";
import type {
  AgentResult,
  RunFinishReason,
  RunStoppedBy,
  StepResult,
  ToolApprovalRequest,
  ToolResult,
} from "./agent-result";
import { newId } from "./new-id";

import type { TurnRun } from "./turn-run";

/**
 * What a run has produced so far: its messages (the user message, then each completed step
 * whole), its steps and usage. `persist` appends what is not stored yet.
 */
export class TurnLog {
  readonly messages: AgentMessage[] = [];
  readonly steps: StepResult[] = [];
  private usage: LanguageModelUsage = emptyUsage();
  private finishReason: RunFinishReason = "other";
  private persisted = 0;
  /** How many of `messages` were already stored before the run (a step awaiting approval that it continues). */
  private restored = 0;
  /** The tool calls left waiting for the user's approval. */
  private approvals: ToolApprovalRequest[] = [];
  /** The results of the calls this run's approval answers ran or denied (before its first step). */
  private answered: ToolResult[] = [];
  /** The caller's id for the run's first assistant message (`run.messageIds.assistant`) was given out. */
  private assistantIdTaken = false;
  /** The run's object (a run with `output`), once a step answered with it. */
  private object: { value: unknown } | undefined;
  /** The id of the first stored claim not replaced yet (`claim`): the session's messages from it on are claims. */
  private claimedFrom: string | undefined;
  /** The `stopWhen` condition that stopped the run, if one did. */
  private stopped: RunStoppedBy | undefined;
  /** Stored messages not yet told in `memory:write` (kept only while someone listens). */
  private untold: AgentMessage[] = [];
  /**
   * What the run spent that no append recorded yet (the usage ledger): given to the next append
   * that stores messages, so it is added in the same write as them.
   */
  private unrecorded: UsageTotals = emptyTotals();

  constructor(
    /** Where `persist` appends: the store's turn; none when the history lives in a provider (`agent.memory()`), written after the run. */
    private readonly turn: StoreTurn | undefined,
    private readonly run: TurnRun,
    /** The agent's model (a call's usage is priced by it unless another model is named) and the `pricing` option. */
    private readonly ledger: { model: PricedModel | undefined; pricing: Readonly<ModelPricing> | undefined } = {
      model: undefined,
      pricing: undefined,
    },
  ) {}

  add(...messages: AgentMessage[]): void {
    this.messages.push(...messages);
  }

  /**
   * Puts back the stored step that awaited approval, first, so the run's steps see it and what it
   * adds is appended after it. It is stored already: never appended again, not among the run's messages.
   */
  restore(...messages: AgentMessage[]): void {
    this.messages.unshift(...messages);
    this.restored += messages.length;
    this.persisted += messages.length;
  }

  /**
   * The id of the next assistant message: for the run's first, the caller's (`streamText` announces
   * it in its UI stream's `start` chunk), else a new one.
   */
  assistantMessageId(): string {
    const chosen = this.run.messageIds?.assistant;
    if (chosen === undefined || this.assistantIdTaken) return newId();
    this.assistantIdTaken = true;
    return chosen;
  }

  /**
   * Gives the message with id `id`, which the store skipped on append (it held that id), the id
   * `fresh`, to be appended again by the next `persist`.
   */
  renameUnstored(id: string, fresh: string): void {
    const index = this.messages.findIndex((message) => message.id === id);
    if (index === -1) return;
    // Not stored: never told under the id the store skipped.
    if (this.untold.length > 0) this.untold = this.untold.filter((message) => message.id !== id);
    this.messages[index] = { ...this.messages[index]!, id: fresh };
    this.persisted = Math.min(this.persisted, index);
  }

  /** The results of the calls the run's approval answers ran or denied. */
  addAnswered(results: ToolResult[]): void {
    this.answered.push(...results);
  }

  /** The run stops for tool calls that wait for the user's approval. */
  awaitApproval(requests: ToolApprovalRequest[]): void {
    this.approvals = requests;
    this.finishReason = "tool-approval";
  }

  /** A `stopWhen` condition stopped the run after its last step. */
  stopBy(condition: RunStoppedBy): void {
    this.stopped = condition;
  }

  /** The `stopWhen` condition that stopped the run, if one did. */
  get stoppedBy(): RunStoppedBy | undefined {
    return this.stopped;
  }

  /** The messages this run added (what was restored left out). */
  get added(): AgentMessage[] {
    return this.restored === 0 ? this.messages : this.messages.slice(this.restored);
  }

  /** Counts a model call (as soon as it answered, so a step cut short still counts). */
  addCall(usage: LanguageModelUsage, finishReason: FinishReason): void {
    this.usage = addUsage(this.usage, usage);
    this.finishReason = finishReason;
    this.addSpent(usage);
  }

  /** Counts tokens a tool spent on a model (an MCP server's sampling): in the run's usage, not in a step's. */
  addToolUsage(usage: LanguageModelUsage, model?: PricedModel): void {
    this.usage = addUsage(this.usage, usage);
    this.addSpent(usage, model);
  }

  /**
   * Counts one model call in the usage ledger only (not in the run's `usage`): a summariser's, or
   * recall's embeddings. Priced by `model`, else the agent's model.
   */
  addSpent(usage: LanguageModelUsage, model: PricedModel | undefined = this.ledger.model): void {
    this.unrecorded = addTotals(this.unrecorded, ledgerTotals(usage, model, this.ledger.pricing));
  }

  /** Token usage of every model call so far, a tool's own included. */
  get totalUsage(): LanguageModelUsage {
    return this.usage;
  }

  setObject(value: unknown): void {
    this.object = { value };
  }

  get hasObject(): boolean {
    return this.object !== undefined;
  }

  addStep(step: StepResult): void {
    this.steps.push(step);
  }

  /**
   * Appends the messages not stored yet to the run's turn and tells `memory:write`. `last`: the
   * run's last append, after which every append of the run is durable (the store may release its
   * lock with it); before it, the store may leave an append's fsync to the last. `tell: false`:
   * the event waits for `tellStored` (an append whose result is still to be confirmed).
   */
  async persist({ last = false, tell = true }: { last?: boolean; tell?: boolean } = {}): Promise<void> {
    // A regenerate or an edit writes once, at its end: its last append replaces the old turn.
    if (!this.turn || (this.run.rewind && !last)) return;
    const pending = this.messages.slice(this.persisted);
    // What was spent rides on an append that stores messages (the store adds it in the same write);
    // an append that fails keeps it for the next one.
    const usage = pending.length > 0 && !isEmptyTotals(this.unrecorded) ? this.unrecorded : undefined;
    if (usage) this.unrecorded = emptyTotals();
    try {
      if (this.claimedFrom !== undefined && pending.length > 0) {
        // The claims give way to what answers them, in one fenced write where the store can.
        await this.turn.replaceFrom(this.claimedFrom, pending, { usage });
        this.claimedFrom = undefined;
      } else await this.turn.append(pending, { last, usage });
    } catch (error) {
      if (usage) this.unrecorded = addTotals(usage, this.unrecorded);
      throw error;
    }
    if (pending.length > 0) {
      this.persisted = this.messages.length;
      // Nobody listening (a memory:write has no stream part): nothing kept, no event built.
      if (this.run.notifier.hasListeners("memory:write"))
        this.untold = this.untold.length === 0 ? pending : [...this.untold, ...pending];
    }
    if (tell) this.tellStored();
  }

  /**
   * Stores claims (tool messages marking approved calls as started, `outcomeUnknown`) before their
   * tools run: appended through the run's fenced turn, so a run that lost its lock is refused before
   * anything runs. Not among the run's messages: the next `persist` with messages to store replaces
   * them with those messages (the calls' results first).
   */
  async claim(claims: AgentMessage[]): Promise<void> {
    if (!this.turn || claims.length === 0) return;
    await this.turn.append(claims);
    this.claimedFrom = claims[0]!.id;
  }

  /** Tells `memory:write` with the messages stored and not told yet, if any. */
  tellStored(): void {
    if (this.untold.length === 0) return;
    const messages = this.untold;
    this.untold = [];
    this.run.notifier.notify({
      type: "memory:write",
      messages,
      messageIds: messages.map((message) => message.id!),
    });
  }

  /** `persist` for a run that is failing: a store failure is reported (`memory:error`), not thrown over the run's error. */
  async persistOrReport(): Promise<void> {
    // A failed regenerate or edit writes nothing: the session keeps the answer it had.
    if (this.run.rewind) return;
    try {
      await this.persist({ last: true });
    } catch (error) {
      this.run.notifier.notify({ type: "memory:error", source: "store", operation: "appendMessages", error });
    }
  }

  /** The payload of `run:end` so far; `history`: the history the run worked on. */
  outcome(startedAt: number, history: readonly AgentMessage[]) {
    const state = { messages: [...history, ...this.messages] };
    return {
      text: this.text,
      usage: this.usage,
      steps: this.steps.length,
      durationMs: Date.now() - startedAt,
      finishReason: this.finishReason,
      ...(this.stopped ? { stoppedBy: this.stopped } : {}),
      state,
    };
  }

  result(): AgentResult {
    const toolCalls: ToolCall[] = this.steps.flatMap((step) => step.toolCalls);
    const toolResults: ToolResult[] = [...this.answered, ...this.steps.flatMap((step) => step.toolResults)];
    const result: AgentResult = {
      text: this.text,
      messages: this.added,
      usage: this.usage,
      steps: this.steps,
      toolCalls,
      toolResults,
      finishReason: this.finishReason,
      toolApprovals: this.approvals,
      sessionId: this.run.sessionId,
      runId: this.run.runId,
      ...(this.object ? { object: this.object.value } : {}),
    };
    if (this.stopped) result.stoppedBy = this.stopped;
    return result;
  }

  private get text(): string {
    return this.steps.at(-1)?.text ?? "";
  }
}
