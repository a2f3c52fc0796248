import type { AgentMessage, AssistantMessage, ToolCall, ToolMessage } from "./agent-message";

/** Content of the tool result that closes a call whose result never arrived. */
export const MISSING_TOOL_RESULT_CONTENT =
  "[agentcore] No result was recorded for this tool call (the run was interrupted or the history was imported without it).";

export interface RepairToolPairingResult {
  messages: AgentMessage[];
  /** Tool results dropped because no call in the assistant message before them made them. */
  droppedResults: ToolMessage[];
  /** Tool results added to close calls that had none. */
  addedResults: ToolMessage[];
}

/**
 * Makes a history that arrived broken (a stored abort, an old import, a hand-written store)
 * keep the pairing rule. Results are matched to calls per assistant message, never by id alone,
 * because ids are not unique across a session (some servers answer `call_0` every time):
 *
 * - the tool messages right after an assistant message answer its calls, in order of id;
 * - a call id repeated within one assistant message is renamed (`<id>_2`) with the second result
 *   that carries it, so both real results survive;
 * - a result found elsewhere (separated from its call) goes back to the latest earlier call with
 *   its id that has none;
 * - results that answer nothing are dropped, calls left without a result are closed with a tool
 *   message that says so.
 *
 * A valid history comes back unchanged (same objects). The input array is never modified.
 */
export function repairToolPairing(messages: readonly AgentMessage[]): RepairToolPairingResult {
  // Most histories hold no tool traffic at all: nothing to pair, nothing to repair.
  let toolTraffic = false;
  for (let index = 0; index < messages.length && !toolTraffic; index++) {
    const message = messages[index]!;
    toolTraffic =
      message.role === "tool" ||
      (message.role === "assistant" && message.toolCalls !== undefined && message.toolCalls.length > 0);
  }
  if (!toolTraffic) return { messages: [...messages], droppedResults: [], addedResults: [] };
  const droppedResults: ToolMessage[] = [];
  const addedResults: ToolMessage[] = [];
  /** Per assistant message with calls (by index): its calls (ids made unique) and the result of each. */
  const slots = new Map<
    number,
    { message: AssistantMessage; calls: ToolCall[]; results: (ToolMessage | undefined)[] }
  >();
  const strays: { index: number; message: ToolMessage }[] = [];

  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === "tool") {
      strays.push({ index, message });
      continue;
    }
    if (message.role !== "assistant" || !message.toolCalls?.length) continue;
    const assistantIndex = index;
    const calls = uniqueCallIds(message.toolCalls);
    const results: (ToolMessage | undefined)[] = calls.map(() => undefined);
    // The run of tool messages right after it: the n-th result with an id answers the n-th call with it.
    const seen = new Map<string, number>();
    for (; index + 1 < messages.length && messages[index + 1]!.role === "tool"; index++) {
      const result = messages[index + 1] as ToolMessage;
      const occurrence = (seen.get(result.toolCallId) ?? 0) + 1;
      seen.set(result.toolCallId, occurrence);
      const slot = findCall(message.toolCalls, result.toolCallId, occurrence);
      if (slot === -1 || results[slot]) {
        strays.push({ index: index + 1, message: result });
      } else {
        results[slot] = calls[slot]!.id === result.toolCallId ? result : { ...result, toolCallId: calls[slot]!.id };
      }
    }
    slots.set(assistantIndex, { message, calls, results });
  }

  // A result out of place answers the latest earlier call with its id that has none.
  const ordered = [...slots.entries()].sort(([left], [right]) => right - left);
  for (const stray of strays) {
    const home = ordered.find(
      ([index, slot]) =>
        index < stray.index &&
        slot.calls.some((call, position) => call.id === stray.message.toolCallId && !slot.results[position]),
    );
    if (!home) {
      droppedResults.push(stray.message);
      continue;
    }
    const slot = home[1];
    slot.results[
      slot.calls.findIndex((call, position) => call.id === stray.message.toolCallId && !slot.results[position])
    ] = stray.message;
  }

  const output: AgentMessage[] = [];
  messages.forEach((message, index) => {
    if (message.role === "tool") return;
    const slot = slots.get(index);
    if (!slot) {
      output.push(message);
      return;
    }
    const renamed = slot.calls.some((call, position) => call !== slot.message.toolCalls![position]);
    output.push(renamed ? { ...slot.message, toolCalls: slot.calls } : message);
    slot.calls.forEach((call, position) => {
      const result = slot.results[position];
      if (result) {
        output.push(result);
        return;
      }
      const closing: ToolMessage = {
        role: "tool",
        toolCallId: call.id,
        name: call.name,
        content: MISSING_TOOL_RESULT_CONTENT,
        ...(message.timestamp === undefined ? {} : { timestamp: message.timestamp }),
      };
      addedResults.push(closing);
      output.push(closing);
    });
  });
  const unchanged = output.length === messages.length && output.every((message, index) => message === messages[index]);
  return { messages: unchanged ? [...messages] : output, droppedResults, addedResults };
}

/**
 * The calls with every repeated id renamed `<id>_2`, `<id>_3`, … (skipping names already taken;
 * letters, digits, `_` and `-` only, as Anthropic requires of tool ids).
 */
function uniqueCallIds(calls: readonly ToolCall[]): ToolCall[] {
  const taken = new Set(calls.map((call) => call.id));
  const seen = new Set<string>();
  return calls.map((call) => {
    if (!seen.has(call.id)) {
      seen.add(call.id);
      return call;
    }
    let suffix = 2;
    while (taken.has(`${call.id}_${suffix}`)) suffix++;
    const id = `${call.id}_${suffix}`;
    taken.add(id);
    return { ...call, id };
  });
}

/** Position of the `occurrence`-th call (1-based) whose original id is `id`, or -1. */
function findCall(calls: readonly ToolCall[], id: string, occurrence: number): number {
  let found = 0;
  for (let position = 0; position < calls.length; position++) {
    if (calls[position]!.id === id && ++found === occurrence) return position;
  }
  return -1;
}
