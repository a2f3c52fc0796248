import type { AgentMessage, ToolCall } from "../messages/agent-message";
import { addUsage, emptyUsage, type FinishReason, type LanguageModelUsage } from "../models/language-model";
import type { AdaptedStore } from "../stores/store-adapter";
import type { AgentResult, StepResult, ToolResult } from "./agent-result";
import type { TurnRun } from "./turn-run";

/**
 * What a run has produced so far: its messages (the user message, then each completed step
 * whole), its steps and usage. `persist` appends what is not stored yet.
 */
export class TurnLog {
  readonly messages: AgentMessage[] = [];
  readonly steps: StepResult[] = [];
  private usage: LanguageModelUsage = emptyUsage();
  private finishReason: FinishReason = "other";
  private persisted = 0;
  /** An append left its fsync to a later one (`persist({ deferSync })`), and none has made it durable yet. */
  private unsynced = false;

  constructor(
    /** Where `persist` appends; none when the history lives in a provider (`agent.memory()`), which is written after the run. */
    private readonly store: AdaptedStore | undefined,
    private readonly run: TurnRun,
  ) {}

  add(...messages: AgentMessage[]): void {
    this.messages.push(...messages);
  }

  /** Counts a model call (as soon as it answered, so a step cut short still counts). */
  addCall(usage: LanguageModelUsage, finishReason: FinishReason): void {
    this.usage = addUsage(this.usage, usage);
    this.finishReason = finishReason;
  }

  addStep(step: StepResult): void {
    this.steps.push(step);
  }

  /**
   * Appends the messages not stored yet and tells `memory:write`. `unlock`: the run's last append,
   * which may release the store's session lock in the same round trip (`appendMessagesAndUnlock`).
   * `deferSync`: the store may leave the append's fsync to the next (`appendMessagesDeferringSync`,
   * for the user message before the model call). Without it, the append is durable when this
   * resolves, and so is every deferred one before it: with nothing left to append, it syncs them.
   */
  async persist(options: { unlock?: boolean; deferSync?: boolean } = {}): Promise<void> {
    if (!this.store) return;
    const pending = this.messages.slice(this.persisted);
    if (pending.length === 0) {
      if (!options.deferSync) await this.sync();
      return;
    }
    if (options.deferSync) {
      if (await this.store.appendMessagesDeferringSync(this.run.sessionId, pending)) this.unsynced = true;
    } else {
      if (options.unlock) await this.store.appendMessagesAndUnlock(this.run.sessionId, pending);
      else await this.store.appendMessages(this.run.sessionId, pending);
      this.unsynced = false; // the store's append syncs everything it wrote before it
    }
    this.persisted = this.messages.length;
    this.run.notifier.notify({
      type: "memory:write",
      messages: pending,
      messageIds: pending.map((message) => message.id!),
    });
  }

  /** Makes the deferred appends durable, when there are any. */
  private async sync(): Promise<void> {
    if (!this.unsynced) return;
    await this.store!.syncAppends(this.run.sessionId);
    this.unsynced = false;
  }

  /** `persist` for a run that is failing: a store failure is reported (`memory:error`), not thrown over the run's error. */
  async persistOrReport(): Promise<void> {
    try {
      await this.persist();
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
      state,
    };
  }

  result(): AgentResult {
    const toolCalls: ToolCall[] = this.steps.flatMap((step) => step.toolCalls);
    const toolResults: ToolResult[] = this.steps.flatMap((step) => step.toolResults);
    return {
      text: this.text,
      messages: this.messages,
      usage: this.usage,
      steps: this.steps,
      toolCalls,
      toolResults,
      finishReason: this.finishReason,
      sessionId: this.run.sessionId,
      runId: this.run.runId,
    };
  }

  private get text(): string {
    return this.steps.at(-1)?.text ?? "";
  }
}
