import type { ToolCall } from "../messages/agent-message";
import { messageIdIssue } from "../messages/message-ids";
import { newId } from "./new-id";

/**
 * The model's tool calls with ids unique within the step and against `taken` (the ids of the
 * calls the model can see): some servers answer `call_0` every time and a mock's ids restart per
 * instance, and a repeated id would pair a result with the wrong call or break the pairing rule.
 * A repeated id becomes `<id>_2`, `<id>_3`, … (the first free one; letters, digits, `_` and `-`
 * only, as Anthropic requires); an empty id, or one a store would refuse (a control character, a
 * lone surrogate: see `messageIdIssue`), becomes a new one. Calls left alone are the same objects.
 */
export function uniqueToolCallIds(calls: readonly ToolCall[], taken: ReadonlySet<string>): ToolCall[] {
  const used = new Set(taken);
  return calls.map((call) => {
    const id = uniqueToolCallId(call.id, used);
    return id === call.id ? call : { ...call, id };
  });
}

/** The id `uniqueToolCallIds` gives a call whose id is `id`, given the ids in `used` (which it joins). */
export function uniqueToolCallId(id: string, used: Set<string>): string {
  let unique = id && messageIdIssue(id) === undefined ? id : newId();
  if (used.has(unique)) {
    let suffix = 2;
    while (used.has(`${unique}_${suffix}`)) suffix++;
    unique = `${unique}_${suffix}`;
  }
  used.add(unique);
  return unique;
}

/** The ids of every tool call in `messages`. */
export function toolCallIdsOf(
  ...histories: readonly (readonly { role: string; toolCalls?: readonly ToolCall[] }[])[]
): Set<string> {
  const ids = new Set<string>();
  for (const messages of histories)
    for (const message of messages) for (const call of message.toolCalls ?? []) ids.add(call.id);
  return ids;
}
