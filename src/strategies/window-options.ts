import { integerOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import { tokenizerFor } from "../tokens/tokenizer";
import { DEFAULT_MAX_TOOL_RESULT_LENGTH } from "./cut-tool-result";
import type { MemoryStrategyContext, MemoryStrategyResult } from "./memory-strategy";
import { selectWindow, type WindowLimits } from "./select-window";

/** Options every windowing strategy shares. */
export interface WindowBehaviourOptions {
  /**
   * Stable prefixes: move the window's start in steps of several turns instead of one turn per
   * request, so a provider's prompt cache keeps hitting. `true` picks the step (a quarter of
   * `maxTurns`, or 4 turns for a token budget); `{ stepTurns }` sets it; `false` cuts exactly.
   * The window never goes over its limits because of it: it holds a few turns fewer instead.
   * @default true
   */
  stablePrefix?: boolean | { stepTurns: number };
  /**
   * Tool results longer than this many characters reach the model cut (head and tail kept, with
   * a marker saying how much was left out); the store keeps them whole. `Infinity` turns it off.
   * @default 20000
   */
  maxToolResultLength?: number;
}

/** Checks the `maxToolResultLength` option every strategy takes. */
export function resolveMaxToolResultLength(value: number | undefined): number {
  const maxToolResultLength = value ?? DEFAULT_MAX_TOOL_RESULT_LENGTH;
  if (!(maxToolResultLength >= 100)) {
    throw new InvalidArgumentError({
      argument: "maxToolResultLength",
      value: maxToolResultLength,
      message: `maxToolResultLength must be at least 100 characters (or Infinity), got ${String(maxToolResultLength)}.`,
    });
  }
  return maxToolResultLength;
}

export function resolveBehaviour(
  options: WindowBehaviourOptions,
  maxTurns: number | undefined,
): Pick<WindowLimits, "stepTurns" | "maxToolResultLength"> {
  const maxToolResultLength = resolveMaxToolResultLength(options.maxToolResultLength);
  let stepTurns = 1;
  const stable = options.stablePrefix ?? true;
  if (typeof stable === "object" && stable !== null) {
    stepTurns = integerOption(stable.stepTurns, "stablePrefix.stepTurns", 1)!;
  } else if (stable) {
    stepTurns = maxTurns === undefined ? 4 : Math.max(1, Math.floor(maxTurns / 4));
  }
  return { stepTurns, maxToolResultLength };
}

/** Runs the window engine for a strategy and shapes its result. */
export function applyWindow(
  history: readonly AgentMessage[],
  context: Pick<MemoryStrategyContext, "model" | "calibration" | "historyOffset" | "partialHistory">,
  limits: WindowLimits,
): MemoryStrategyResult {
  const offset = context.historyOffset;
  const window = selectWindow(
    history,
    limits,
    { profile: tokenizerFor(context.model), calibration: validCalibration(context.calibration) },
    {
      offset: offset !== undefined && Number.isInteger(offset) && offset > 0 ? offset : 0,
      partial: context.partialHistory === true,
    },
  );
  return {
    messages: window.messages,
    dropped: window.dropped,
    ...(window.tokens === undefined ? {} : { tokens: window.tokens }),
    ...(limits.maxTokens === undefined ? {} : { budget: limits.maxTokens }),
    ...(window.needsEarlierHistory ? { needsEarlierHistory: true } : {}),
  };
}

/**
 * The first tail the agent reads for a window with these limits: enough for the usual chat
 * (about three messages a turn; for a token limit, `tokensPerMessage` tokens a message, ten when
 * nothing is known yet) plus a margin, so most turns take one read; a window that reaches the
 * tail's start asks for a longer one.
 */
export function initialTailLength(limits: WindowLimits, tokensPerMessage = DEFAULT_TOKENS_PER_MESSAGE): number {
  const margin = 16;
  const bounds: number[] = [];
  if (limits.maxTurns !== undefined) bounds.push(limits.maxTurns * 3);
  if (limits.maxMessages !== undefined) bounds.push(limits.maxMessages);
  if (limits.maxTokens !== undefined)
    bounds.push(Math.ceil(limits.maxTokens / Math.max(DEFAULT_TOKENS_PER_MESSAGE, tokensPerMessage)));
  const bound = bounds.length === 0 ? 1024 : Math.min(...bounds);
  return Math.min(bound, 100_000) + margin;
}

const DEFAULT_TOKENS_PER_MESSAGE = 10;

/**
 * Sizes the first tail of a token-limited window from what its windows held so far: the tokens a
 * message took on average (a moving average over windows of at least 8 messages), counted a
 * quarter low so the tail has room to spare. Ten tokens a message until something is known, and
 * never more than that, so a learned size only ever shortens the read. A tail that turns out too
 * short costs one more read (the window asks for a longer one), never a different window.
 */
export class TailSizer {
  private tokensPerMessage: number | undefined;

  constructor(private readonly limits: WindowLimits) {}

  get historyLimit(): number {
    return initialTailLength(
      this.limits,
      this.tokensPerMessage === undefined ? undefined : this.tokensPerMessage * 0.75,
    );
  }

  /** Learns from a window just chosen. */
  observe(result: MemoryStrategyResult): void {
    if (this.limits.maxTokens === undefined || result.tokens === undefined || result.messages.length < 8) return;
    const sample = result.tokens / result.messages.length;
    if (!(Number.isFinite(sample) && sample > 0)) return;
    this.tokensPerMessage = this.tokensPerMessage === undefined ? sample : 0.75 * this.tokensPerMessage + 0.25 * sample;
  }
}

export function validCalibration(value: number | undefined): number {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : 1;
}
