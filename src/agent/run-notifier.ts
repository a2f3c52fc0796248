import type { AgentEventEmitter, AgentEventMap, AgentEventName } from "./agent-events";
import type { AgentStreamPart } from "./agent-result";

type RunEventBase = Pick<AgentEventMap["run:start"], "sessionId" | "runId" | "agentName">;

/** Moments only a stream shows: text and reasoning as they come, tool inputs as the model writes them. */
type StreamOnlyMoment = Extract<
  AgentStreamPart,
  { type: "text-delta" | "reasoning-delta" | "reasoning-end" | "tool-input-start" | "tool-input-delta" }
>;

/** A moment of a run: an event's payload without the run's ids, or a moment only a stream shows. */
export type RunMoment =
  | { [Name in AgentEventName]: { type: Name } & Omit<AgentEventMap[Name], keyof RunEventBase> }[AgentEventName]
  | StreamOnlyMoment;

/**
 * The one notification path of a run: each moment is told once, `notify` emits its event (with
 * the run's ids) and, for a streamed run, returns its stream part, if it has one, for the loop to
 * yield. A `run()` reads no stream parts, so none is built.
 */
export class RunNotifier {
  constructor(
    private readonly events: AgentEventEmitter,
    readonly base: RunEventBase,
    /** The run is streamed: `notify` returns stream parts. */
    private readonly streaming: boolean,
  ) {}

  /** Whether anyone listens to an event (lets the loop skip work only a listener would see). */
  hasListeners(name: AgentEventName): boolean {
    return this.events.hasListeners(name);
  }

  /** Whether telling `name` does anything: a listener gets its event, or a streamed run its part. */
  tells(name: AgentEventName): boolean {
    return this.streaming || this.events.hasListeners(name);
  }

  notify(moment: RunMoment): AgentStreamPart | undefined {
    if (moment.type === "text-delta") return moment;
    if (
      moment.type === "reasoning-delta" ||
      moment.type === "reasoning-end" ||
      moment.type === "tool-input-start" ||
      moment.type === "tool-input-delta"
    )
      return this.streaming ? moment : undefined;
    if (this.events.hasListeners(moment.type)) {
      const { type, ...payload } = moment;
      this.events.emit(type, { ...this.base, ...payload } as never);
    }
    return this.streaming ? streamPartOf(moment) : undefined;
  }

  /** `notify`, its stream part yielded (for `yield*` in the run loop). */
  *tell(moment: RunMoment): Generator<AgentStreamPart, void> {
    const part = this.notify(moment);
    if (part) yield part;
  }
}

function streamPartOf(moment: RunMoment): AgentStreamPart | undefined {
  switch (moment.type) {
    case "step:start":
      return { type: "step-start", stepNumber: moment.step };
    case "tool:call":
      return { type: "tool-call", toolCall: moment.toolCall };
    case "tool:result":
      return {
        type: "tool-result",
        toolCallId: moment.toolCallId,
        toolName: moment.toolName,
        result: moment.result,
        isError: moment.isError,
        ...(moment.denied ? { denied: true as const } : {}),
      };
    case "tool:approval-request":
      return { type: "tool-approval-request", approval: moment.approval };
    case "step:end":
      return {
        type: "step-finish",
        stepNumber: moment.step,
        finishReason: moment.finishReason,
        usage: moment.usage,
        messages: moment.messages,
      };
    case "run:end":
      // A failed run ends with the error, which the stream reports itself.
      return moment.finishReason === "aborted" || moment.finishReason === "error"
        ? undefined
        : { type: "finish", finishReason: moment.finishReason, usage: moment.usage, text: moment.text };
    default:
      return undefined;
  }
}
