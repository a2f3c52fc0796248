import type { AgentMessage } from "../messages/agent-message";

/**
 * One turn as the AgentLIB document's `groupIntoTurns` returns it: a user message, the assistant's
 * tool calls with their results, and the final answer. (`groupTurns` gives the same turns as
 * index ranges, without copies.)
 */
export interface ConversationTurn {
  messages: AgentMessage[];
}

/** A turn as a half-open index range `[start, end)` of a message list. */
export interface TurnRange {
  start: number;
  end: number;
}

/**
 * Splits a history into turns, the unit strategies keep or drop: a user message, the assistant
 * messages with their tool calls, the tool results, and the final assistant message. Messages
 * before the first user message (an imported greeting, a stored assistant message) form a turn
 * of their own. A history that keeps the pairing rule never has a tool result split from its
 * call by a turn boundary, since a turn only starts at a user message. O(n), no copies.
 */
export function groupTurns(messages: readonly AgentMessage[], from = 0): TurnRange[] {
  const turns: TurnRange[] = [];
  let start = from;
  for (let index = from + 1; index < messages.length; index++) {
    if (messages[index]!.role === "user") {
      turns.push({ start, end: index });
      start = index;
    }
  }
  if (start < messages.length) turns.push({ start, end: messages.length });
  return turns;
}

/**
 * Splits one turn into the pieces that can be dropped from inside it without breaking a pair:
 * each assistant message together with the tool results that follow it, and every other message
 * on its own.
 */
export function groupSteps(messages: readonly AgentMessage[], turn: TurnRange): TurnRange[] {
  const steps: TurnRange[] = [];
  let index = turn.start;
  while (index < turn.end) {
    const start = index;
    index++;
    if (messages[start]!.role === "assistant") {
      while (index < turn.end && messages[index]!.role === "tool") index++;
    }
    steps.push({ start, end: index });
  }
  return steps;
}

/**
 * The turns of a history, found from the end on demand: a window over a long history only
 * looks at its last turns, so this avoids building a range for every turn of a 100k-message
 * session. `length` (the number of turns) is counted without allocating.
 */
export class TailTurns {
  readonly length: number;
  /** Starts of the turns found so far, newest first. */
  private readonly starts: number[] = [];
  private scanned: number;

  constructor(
    private readonly messages: readonly AgentMessage[],
    private readonly from = 0,
  ) {
    let count = messages.length > from ? 1 : 0;
    for (let index = from + 1; index < messages.length; index++) if (messages[index]!.role === "user") count++;
    this.length = count;
    this.scanned = messages.length;
  }

  /** The turn at `index` (0: the oldest), as a range. */
  at(index: number): TurnRange {
    const back = this.length - 1 - index;
    while (this.starts.length <= back) {
      let start = this.scanned - 1;
      while (start > this.from && this.messages[start]!.role !== "user") start--;
      this.starts.push(start);
      this.scanned = start;
    }
    return { start: this.starts[back]!, end: back === 0 ? this.messages.length : this.starts[back - 1]! };
  }
}
