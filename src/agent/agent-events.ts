import type { UserMessage } from "../messages/agent-message";
import type { AgentMessage, ToolCall } from "../messages/agent-message";
import type { FinishReason, LanguageModelUsage } from "../models/language-model";
import type { UsageTotals } from "../stores/usage-totals";
import type { FactChange } from "../tools/memory-tools";
import type { RunFinishReason, RunStoppedBy, ToolApprovalRequest, ToolApprovalResponse } from "./agent-result";

interface RunEventBase {
  sessionId: string;
  /** Unique per run; ties the events of one run together. */
  runId: string;
  agentName?: string;
}

/** Payloads of the agent's events (docs/architecture.md, "Events"). */
export interface AgentEventMap {
  /** `input`: the user's message; absent when the run only answers tool approvals (`approvals`). */
  "run:start": RunEventBase & { userId?: string; input?: UserMessage["content"]; approvals?: ToolApprovalResponse[] };
  "run:end": RunEventBase & {
    text: string;
    usage: LanguageModelUsage;
    steps: number;
    durationMs: number;
    finishReason: RunFinishReason | "aborted" | "error";
    error?: unknown;
    /** The run was a retried request answered with the stored turn: nothing ran (`AgentResult.replayed`). */
    replayed?: true;
    /** The `stopWhen` condition that stopped the run (`AgentResult.stoppedBy`), if one did. */
    stoppedBy?: RunStoppedBy;
    /** The conversation the run worked on: the history read (the store's, or the `agent.memory()` provider's), then this run's messages. */
    state: { messages: AgentMessage[] };
  };
  "step:start": RunEventBase & { step: number; messageCount: number };
  "step:end": RunEventBase & {
    step: number;
    text: string;
    toolCalls: ToolCall[];
    finishReason: FinishReason;
    usage: LanguageModelUsage;
    /**
     * The step's messages as they are stored: its assistant message (with its `metadata`), then its
     * tool results.
     */
    messages: AgentMessage[];
  };
  "tool:call": RunEventBase & { step: number; toolCall: ToolCall };
  "tool:result": RunEventBase & {
    step: number;
    toolCallId: string;
    toolName: string;
    result: unknown;
    isError: boolean;
    /** The user denied the call: it never ran (durationMs 0). */
    denied?: true;
    durationMs: number;
  };
  /** A tool call waits for the user's approval (docs/approvals.md); the run ends with `finishReason: "tool-approval"`. */
  "tool:approval-request": RunEventBase & { step: number; approval: ToolApprovalRequest };
  "memory:read": RunEventBase & { messageCount: number; factCount: number; recalledCount: number };
  /** Messages appended to the session, or a fact set or deleted (then `messages` is empty and `fact` says what changed). */
  /**
   * The caller's id for the new user message names another stored message (a client that reuses
   * ids, or a retry whose content differs): the message is stored under `id` instead of `requestedId`.
   */
  "message:renamed": RunEventBase & { requestedId: string; id: string };
  "memory:write": RunEventBase & { messages: AgentMessage[]; messageIds: string[]; fact?: FactChange };
  "memory:error": RunEventBase & { source: string; operation: string; error: unknown };
  /**
   * A title generated for the session (`generateTitle`) was written, after its first completed turn
   * (told after the run ended, from the background work `agent.idle()` waits for). `usage`: what the
   * title's model call spent, added to the session's usage ledger with it.
   */
  "title:set": RunEventBase & { title: string; usage: UsageTotals };
  /** A session's title could not be generated or written (`generateTitle`); the run was not affected. */
  "title:error": RunEventBase & { error: unknown };
  "context:trimmed": RunEventBase & {
    strategy: string;
    /**
     * Messages of the history handed to the strategy that the window left out. For strategies
     * that read only a tail (the built-in windows), that is the part of the tail before the
     * window, not every older message of the session.
     */
    droppedCount: number;
    droppedMessageIds: string[];
    keptCount: number;
    summarized: boolean;
    /** Estimated input tokens of the history handed to the strategy (the tail it read, for tail-reading strategies; messages only, as `estimateMessagesTokens` counts them). */
    tokensBefore?: number;
    /** Estimated input tokens of the window sent. */
    tokensAfter?: number;
    /** `tokensAfter` times the model's calibration ratio: what the provider is expected to count. */
    calibratedTokensAfter?: number;
    /** The calibration ratio (provider count / our estimate) learnt for the model, when known. */
    calibration?: number;
    /** The token budget the strategy fitted the window to, when it has one. */
    budget?: number;
  };
}

export type AgentEventName = keyof AgentEventMap;
export type AgentEventListener<Name extends AgentEventName> = (event: AgentEventMap[Name]) => void;

/**
 * A small typed emitter. A listener that throws (or rejects) never breaks a run: its error is
 * reported to `onListenerError` (default: `console.error`).
 */
export class AgentEventEmitter {
  private readonly listeners = new Map<AgentEventName, Set<(event: never) => void>>();

  constructor(
    private readonly onListenerError: (error: unknown, event: AgentEventName) => void = defaultListenerError,
  ) {}

  on<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): () => void {
    let set = this.listeners.get(name);
    if (!set) {
      set = new Set();
      this.listeners.set(name, set);
    }
    set.add(listener as (event: never) => void);
    return () => this.off(name, listener);
  }

  off<Name extends AgentEventName>(name: Name, listener: AgentEventListener<Name>): void {
    this.listeners.get(name)?.delete(listener as (event: never) => void);
  }

  /** Whether anyone listens to an event (lets the run loop skip work only a listener would see). */
  hasListeners(name: AgentEventName): boolean {
    return (this.listeners.get(name)?.size ?? 0) > 0;
  }

  emit<Name extends AgentEventName>(name: Name, event: AgentEventMap[Name]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        const returned = (listener as AgentEventListener<Name>)(event) as unknown;
        if (returned && typeof (returned as Promise<unknown>).catch === "function") {
          (returned as Promise<unknown>).catch((error) => this.onListenerError(error, name));
        }
      } catch (error) {
        this.onListenerError(error, name);
      }
    }
  }
}

function defaultListenerError(error: unknown, event: AgentEventName): void {
  console.error(`[agentcore] a "${event}" listener threw; the run goes on:`, error);
}
