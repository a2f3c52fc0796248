import { parseAgentMessages, type AgentMessage, type ToolCall, type ToolMessage } from "../messages/agent-message";
import type { ContentPart, MessageContent, ToolContentPart } from "../messages/content-parts";
import { dataContentUrl } from "../messages/data-content";
import { imageMediaType } from "../messages/image-info";
import { noMessageLimits } from "../messages/message-limits";
import { splitPendingApprovals } from "../messages/pending-approvals";
import { uiProviderMetadata } from "../messages/provider-metadata";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import { toContentOutput } from "../messages/tool-result-content";
import type { UIMessageV5, UIMessagePart, UIToolPart } from "./ui-message";
import { foldMessageMetadata } from "./ui-message-metadata";

/**
 * Converts stored agent messages into UI messages (AI SDK v5+ shape) so a page can show a
 * session's history. The assistant messages and tool results of one turn become one UI
 * assistant message with a `step-start` part per step and `tool-<name>` parts in state
 * `output-available` (a call that needed approval: `approval-requested`, `approval-responded` or
 * `output-denied`, with its `approval`, as `useChat` keeps them). Ids and timestamps go in `metadata.agentcore`, so
 * `convertToModelMessages(convertToUIMessages(history))` gives the history back (the messages'
 * `metadata` left out: a client could write anything there). An assistant message's metadata (the
 * app's fields, its model, usage, finish reason and duration) is folded over its steps as
 * `foldMessageMetadata` says (docs/messages.md, "Message metadata").
 */
export function convertToUIMessages(messages: readonly AgentMessage[]): UIMessageV5[] {
  // A step awaiting approval at the end is shown as it is (its calls `approval-requested`), not closed by the repair.
  const split = splitPendingApprovals(
    parseAgentMessages(messages, { source: "convertToUIMessages input", limits: noMessageLimits }),
  );
  const history = repairToolPairing(split.messages).messages;
  if (split.step) history.push(split.step.assistant, ...split.step.results);
  const output: UIMessageV5[] = [];
  let current: { message: UIMessageV5; sources: AgentMessage[] } | undefined;
  const finish = () => {
    if (current) output.push(withMetadata(current.message, current.sources));
    current = undefined;
  };

  for (let index = 0; index < history.length; index++) {
    const message = history[index]!;
    if (message.role === "user" || message.role === "system") {
      finish();
      output.push(
        withMetadata({ id: message.id ?? newId(), role: message.role, parts: uiParts(message.content) }, [message]),
      );
      continue;
    }
    if (message.role === "tool") continue; // placed with its call below
    if (!current) current = { message: { id: message.id ?? newId(), role: "assistant", parts: [] }, sources: [] };
    const parts: UIMessagePart[] = current.message.parts;
    parts.push({ type: "step-start" });
    current.sources.push(message);
    if (message.content.length > 0 || !message.toolCalls?.length)
      parts.push(...uiParts(message.content).map((part) => ({ ...part, state: "done" as const })));
    // After repair, a step's results are the tool messages right after it.
    const results = new Map<string, ToolMessage>();
    for (let next = index + 1; next < history.length && history[next]!.role === "tool"; next++) {
      const result = history[next] as ToolMessage;
      results.set(result.toolCallId, result);
    }
    for (const call of message.toolCalls ?? []) {
      const result = results.get(call.id);
      if (result) current.sources.push(result);
      const part = toolPart(call, result);
      if (part) parts.push(part);
    }
  }
  finish();
  return output;
}

/**
 * A call as a `tool-<name>` part: `output-available` with its result; with an approval, the
 * approval and its state as the AI SDK's `useChat` keeps them: `approval-requested` while it awaits
 * the user, `approval-responded` once answered and not run, `output-denied` when denied,
 * `output-error` when its tool was started and its result never recorded (`outcomeUnknown`).
 */
function toolPart(call: ToolCall, result: ToolMessage | undefined): UIToolPart | undefined {
  const base = {
    type: `tool-${call.name}` as const,
    toolCallId: call.id,
    input: call.arguments,
    ...(call.providerExecuted ? { providerExecuted: true } : {}),
  };
  if (!call.approval)
    return result ? { ...base, state: "output-available", output: toolOutput(result.content) } : undefined;
  if (!result) {
    return call.approval.approved === undefined
      ? { ...base, state: "approval-requested", approval: { id: call.approval.id } }
      : { ...base, state: "approval-responded", approval: call.approval };
  }
  const answer = result.approval;
  const approval = {
    id: call.approval.id,
    approved: answer?.approved ?? true,
    ...(answer?.reason === undefined ? {} : { reason: answer.reason }),
  };
  if (answer?.approved === false) return { ...base, state: "output-denied", approval };
  // Started, its result never recorded (docs/approvals.md, "A stalled approver"): an error, not an output.
  if (result.outcomeUnknown) return { ...base, state: "output-error", errorText: toolText(result.content), approval };
  return { ...base, state: "output-available", output: toolOutput(result.content), approval };
}

/**
 * Content as UI parts: text as text, images and files as `file` parts (bytes and base64 as a
 * `data:` URL), reasoning as reasoning; `providerOptions` as the part's `providerMetadata` (the
 * providers whose options are plain JSON objects, the shape `useChat` and `convertToModelMessages` take).
 */
function uiParts(content: MessageContent): (UIMessagePart & { type: "text" | "reasoning" | "file" })[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return content.map((part: ContentPart) => {
    const providerMetadata = uiProviderMetadata(part.providerOptions);
    const metadata = providerMetadata === undefined ? {} : { providerMetadata };
    switch (part.type) {
      case "image": {
        const mediaType = imageMediaType(part) ?? "application/octet-stream";
        return {
          type: "file",
          mediaType,
          url: dataContentUrl(part.image, mediaType),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
          ...metadata,
        };
      }
      case "file":
        return {
          type: "file",
          mediaType: part.mediaType,
          url: dataContentUrl(part.data, part.mediaType),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
          ...metadata,
        };
      default:
        return { type: part.type, text: part.text, ...metadata };
    }
  });
}

/**
 * Structured results go back as the value they were; anything else as the text it is. A result
 * given as parts goes back in the AI SDK's content output shape (`{ type: "content", value }`).
 */
export function toolOutput(content: MessageContent): unknown {
  if (typeof content !== "string") return toContentOutput(content as ToolContentPart[]);
  try {
    const value: unknown = JSON.parse(content);
    if (value !== null && typeof value === "object" && JSON.stringify(value) === content) return value;
    if ((typeof value === "number" || typeof value === "boolean") && JSON.stringify(value) === content) return value;
  } catch {
    // not JSON: the text itself
  }
  return content;
}

function withMetadata(message: UIMessageV5, sources: AgentMessage[]): UIMessageV5 {
  const metadata = foldMessageMetadata(sources);
  return metadata === undefined ? message : { ...message, metadata };
}

function newId(): string {
  return globalThis.crypto.randomUUID();
}

/** A claim's content as the error text: it is always text. */
function toolText(content: ToolMessage["content"]): string {
  return typeof content === "string"
    ? content
    : content.map((part) => (part.type === "text" ? part.text : "")).join("");
}
