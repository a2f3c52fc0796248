import type { UserMessage } from "../messages/agent-message";
import type { JsonValue } from "../messages/message-metadata";
import type { AgentStreamPart, ToolApprovalResponse } from "./agent-result";
import type { RunNotifier } from "./run-notifier";
import type { LoadedHistory } from "./session-history";
import type { RunTrace } from "./telemetry/run-trace";
import type { ResolvedOutput } from "./output-spec";
import type { PendingTitle } from "./pending-title";
import type { RunStop } from "./run-stop";
import type { StopCondition } from "./stop-conditions";
import type { RunWorkingMemory } from "./working-memory-run";

/** What one run is about (the agent's part is its frozen `AgentConfig`). */
export interface TurnRun {
  readonly runId: string;
  readonly sessionId: string;
  readonly userId: string | undefined;
  /** The user's message as given (validated): text or user parts; none when the run only answers approvals. */
  readonly input: UserMessage["content"] | undefined;
  /** Its text (`contentText`): the recall query ("" without input: nothing is recalled). */
  readonly inputText: string;
  /** The user's answers to tool calls awaiting approval (validated; empty when none). */
  readonly approvals: readonly ToolApprovalResponse[];
  readonly abortSignal: AbortSignal | undefined;
  /** The run's stop, once its turn is open (`agent.stop`, `stopRun`): `abortSignal` is then its signal. */
  readonly stop?: RunStop | undefined;
  /** Where this run's facts live, when memory tools are on. */
  readonly factScopeId: string | undefined;
  /** The run's working memory, when the agent keeps one. */
  readonly workingMemory?: RunWorkingMemory | undefined;
  /** `stream` uses the model's `doStream` and yields text as it comes. */
  readonly mode: "generate" | "stream";
  /**
   * A regenerate (no `replaceFrom`: the last user message, or the one at or before `regenerateFrom`
   * when the session holds that id) or an edit (`replaceFrom`: a user message's id): the run
   * replaces the stored history from that user message on (`rewind-turn.ts`).
   */
  readonly rewind?: { replaceFrom?: string; regenerateFrom?: string } | undefined;
  /**
   * Ids the caller chose (`streamText`): `user` for the new user message (a new id when the history
   * read holds it), `assistant` for the run's first assistant message. Otherwise both are new.
   */
  readonly messageIds?: { readonly user?: string; readonly assistant?: string } | undefined;
  /** A regenerate's stored user message, added to the turn again as it is (same id and time). */
  readonly userMessage?: UserMessage | undefined;
  /** The history to run on instead of the stored one (stateless `streamText`). */
  readonly history: LoadedHistory | undefined;
  readonly notifier: RunNotifier;
  /** The run's spans, when it is traced (the `telemetry` option); phases start theirs with `run.trace?.…`. */
  readonly trace?: RunTrace;
  /** The app's fields for the metadata of each assistant message the run stores (`run({ metadata })`), checked. */
  readonly metadata?: Readonly<Record<string, JsonValue>> | undefined;
  /** The object the run answers with (the `output` option), checked. */
  readonly output?: ResolvedOutput | undefined;
  /** Told of the session's title being generated (`generateTitle`), when the run starts one: the agent waits for it in `idle()`. */
  readonly onTitle?: ((title: PendingTitle) => void) | undefined;
  /** The app's context (`run({ context })`), given to tools and `prepareStep` only: never stored, sent, traced or reported. */
  readonly context: unknown;
  /** The run's own `stopWhen` (replaces the agent's), checked. */
  readonly stopWhen: readonly StopCondition[] | undefined;
  /** Stream mode: where text deltas go, straight to the stream's buffer (not yielded through the loop's generators). */
  readonly textSink?: ((part: AgentStreamPart) => void) | undefined;
}
