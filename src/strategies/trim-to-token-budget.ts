import type { AgentMessage } from "../messages/agent-message";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { DEFAULT_MAX_TOOL_RESULT_LENGTH } from "./cut-tool-result";
import { selectWindow } from "./select-window";
import type { EstimateTokensOptions } from "../tokens/estimate-tokens";
import { tokenizerFor } from "../tokens/tokenizer";

export interface TrimToTokenBudgetOptions extends EstimateTokensOptions {
  /** Tool results longer than this many characters are sent cut, with a marker. @default 20000 */
  maxToolResultLength?: number;
  /** Move the cut in steps of this many turns (stable prompt prefix). @default 1 (exact cut) */
  stepTurns?: number;
}

/**
 * The most recent whole turns of `messages` that fit `maxTokens` (per-message overhead
 * included), oldest first. Pairing-safe: turns are kept or dropped whole, a history that arrives
 * broken is repaired first, and when the latest turn alone is over the budget its older tool
 * steps are dropped (the user message and the newest step are always kept). Leading system
 * messages are always kept. Never modifies `messages`.
 */
export function trimToTokenBudget(
  messages: readonly AgentMessage[],
  maxTokens: number,
  options: TrimToTokenBudgetOptions = {},
): AgentMessage[] {
  const valid = findToolPairingIssues(messages).length === 0 ? messages : repairToolPairing(messages).messages;
  return selectWindow(
    valid,
    {
      maxTokens,
      stepTurns: Math.max(1, options.stepTurns ?? 1),
      maxToolResultLength: options.maxToolResultLength ?? DEFAULT_MAX_TOOL_RESULT_LENGTH,
    },
    { profile: tokenizerFor(options.model), calibration: 1 },
  ).messages;
}
