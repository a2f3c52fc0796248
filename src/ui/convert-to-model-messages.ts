import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";
import type { AgentMessage, AssistantMessage, ToolCall, ToolMessage } from "../messages/agent-message";
import type {
  AssistantContentPart,
  FilePart,
  ImagePart,
  ProviderOptions,
  TextPart,
  UserContentPart,
} from "../messages/content-parts";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { withoutAnsweredApprovals } from "./answered-approvals";
import { guardUIPayload, type PayloadLimits } from "./guard-payload";
import { Issue, readSegments, type Segment, type ToolSegment } from "./read-ui-parts";
import type { UIMessage } from "./ui-message";

export type ConvertToModelMessagesOptions = PayloadLimits;

/**
 * Converts UI messages (untrusted JSON from a browser, AI SDK v4 or v5+ shape) into agent
 * messages, part by part as the `ai` package's own `convertToModelMessages` does: `file` parts
 * become image parts (`image/*`) or file parts whose data is the part's URL, `reasoning` parts
 * reasoning parts (`providerMetadata` as `providerOptions`, checked and copied as plain JSON: an
 * object of provider objects, at most 1 MiB a part). A tool invocation with a result
 * becomes an assistant `toolCalls` entry plus a `tool` message (an `output-error` call's input
 * falls back to its `rawInput`; a denied call gives the model the user's reason); a call awaiting
 * the user's approval (`approval-requested`) is kept with its approval and no result, as a stored
 * pending call is (held back from the model until answered); a provider-executed call keeps
 * `providerExecuted: true`. Other incomplete calls are dropped, never sent. Malformed input (a malformed data: URL included) is an
 * `InvalidMessageError` whose issues name each message and field; oversized payloads and
 * prototype-polluting keys are refused.
 */
export function convertToModelMessages(
  uiMessages: readonly UIMessage[] | unknown,
  options: ConvertToModelMessagesOptions = {},
): AgentMessage[] {
  const list = guardUIPayload(uiMessages, options);
  const output: AgentMessage[] = [];
  const issues: MessageIssue[] = [];
  list.forEach((raw, index) => {
    try {
      output.push(...convertOne(raw));
    } catch (error) {
      if (!(error instanceof Issue)) throw error;
      issues.push({ index, path: error.path, message: error.message });
    }
  });
  if (issues.length > 0) throw new InvalidMessageError({ issues });
  // Calls whose approval was just answered have no result yet, in the last step only (the server runs or
  // denies them); calls awaiting the user's approval have none either (a stored history holds them back).
  const checked = withoutAnsweredApprovals(output);
  const pairing = findToolPairingIssues(checked).filter((issue) => !awaitsApproval(checked, issue));
  if (pairing.length > 0) {
    throw new InvalidMessageError({
      issues: pairing,
      message: `The UI messages do not make a valid conversation: ${pairing[0]!.message} (a tool call id used twice?).`,
    });
  }
  return output;
}

/** Whether a pairing issue is a call without a result that awaits the user's approval (`approval-requested`). */
function awaitsApproval(messages: readonly AgentMessage[], issue: MessageIssue): boolean {
  const match = /^toolCalls\.(\d+)$/.exec(issue.path);
  const message = messages[issue.index];
  if (!match || message?.role !== "assistant") return false;
  const approval = message.toolCalls?.[Number(match[1])]?.approval;
  return approval !== undefined && approval.approved === undefined;
}

function convertOne(raw: unknown): AgentMessage[] {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Issue("", "expected a message object");
  const message = raw as Record<string, unknown>;
  const id = message.id;
  if (typeof id !== "string" || id.length === 0 || id.length > 512)
    throw new Issue("id", "expected a non-empty string of at most 512 characters");
  const role = message.role;
  if (role === "data") return []; // v4 data messages carry no conversation
  if (role !== "user" && role !== "assistant" && role !== "system")
    throw new Issue("role", 'expected "user", "assistant" or "system"');

  const segments = readSegments(message);
  const produced = role === "assistant" ? buildAssistant(segments) : buildText(role, segments);
  const { ids, timestamps } = readMetadata(message, produced.length);
  const createdAt = readCreatedAt(message);
  produced.forEach((agentMessage, position) => {
    const messageId = ids?.[position] ?? (position === 0 ? id : undefined);
    if (messageId !== undefined) agentMessage.id = messageId;
    const timestamp = timestamps?.[position] ?? createdAt;
    if (timestamp !== undefined) agentMessage.timestamp = timestamp;
  });
  return produced.map(orderKeys);
}

/** A system message is its text; a user message too unless it has files or provider options (then parts). */
function buildText(role: "user" | "system", segments: Segment[]): AgentMessage[] {
  const plain = segments.every((segment) => segment.kind !== "file" && !("providerOptions" in segment));
  if (role === "system" || plain) {
    const text = segments.flatMap((segment) => (segment.kind === "text" ? [segment.text] : []));
    return [{ role, content: text.join("\n") }];
  }
  const content: UserContentPart[] = [];
  for (const segment of segments) {
    if (segment.kind === "text") content.push(textPart(segment));
    else if (segment.kind === "file") content.push(filePart(segment));
  }
  return [{ role: "user", content }];
}

function textPart(segment: { text: string; providerOptions?: ProviderOptions }): TextPart {
  return { type: "text", text: segment.text, ...withOptions(segment.providerOptions) };
}

/** An image (`image/*`) or file part; the URL (a data: or http(s) URL) is the data, as the AI SDK passes it. */
function filePart(segment: Extract<Segment, { kind: "file" }>): ImagePart | FilePart {
  const options = withOptions(segment.providerOptions);
  const filename = segment.filename === undefined ? {} : { filename: segment.filename };
  if (segment.mediaType.startsWith("image/"))
    return { type: "image", image: segment.url, mediaType: segment.mediaType, ...filename, ...options };
  return { type: "file", data: segment.url, mediaType: segment.mediaType, ...filename, ...options };
}

function withOptions(providerOptions: ProviderOptions | undefined): { providerOptions?: ProviderOptions } {
  return providerOptions === undefined ? {} : { providerOptions };
}

/** Text alone stays a string (lines joined); reasoning or provider options make it parts. */
function assistantContent(parts: AssistantContentPart[]): AssistantMessage["content"] {
  if (parts.every((part) => part.type === "text" && part.providerOptions === undefined))
    return parts.map((part) => part.text).join("\n");
  return parts;
}

/**
 * Splits an assistant UI message into steps: each step's text, reasoning and completed tool
 * calls, then their results. File parts of an assistant message are not kept (an assistant
 * message holds text and reasoning).
 */
function buildAssistant(segments: Segment[]): AgentMessage[] {
  const produced: AgentMessage[] = [];
  let content: AssistantContentPart[] = [];
  let tools: ToolSegment[] = [];
  const flush = () => {
    if (content.length === 0 && tools.length === 0) return;
    const assistant: AssistantMessage = { role: "assistant", content: assistantContent(content) };
    if (tools.length > 0) assistant.toolCalls = tools.map(toolCall);
    produced.push(assistant);
    for (const tool of tools) {
      if (tool.content === undefined) continue; // an answered approval: the server runs or denies the call
      const answer = tool.approval?.approved;
      produced.push({
        role: "tool",
        toolCallId: tool.toolCallId,
        name: tool.toolName,
        content: tool.content,
        ...(answer === undefined
          ? {}
          : {
              approval: {
                approved: answer,
                ...(tool.approval!.reason === undefined ? {} : { reason: tool.approval!.reason }),
              },
            }),
      } satisfies ToolMessage);
    }
    content = [];
    tools = [];
  };
  for (const segment of segments) {
    if (segment.kind === "step") flush();
    else if (segment.kind === "text" || segment.kind === "reasoning") {
      // Text after the calls of a step answers their results, unless the provider ran them all.
      if (tools.some((tool) => !tool.providerExecuted)) flush();
      content.push(
        segment.kind === "text"
          ? textPart(segment)
          : { type: "reasoning", text: segment.text, ...withOptions(segment.providerOptions) },
      );
    } else if (segment.kind === "tool") tools.push(segment);
  }
  flush();
  return produced;
}

/**
 * A tool segment's call. Its approval keeps the id; the user's answer stays on the call only while
 * the call has not run (`approval-responded`): once it has, the answer is on its tool message.
 */
function toolCall(tool: ToolSegment): ToolCall {
  const call: ToolCall = { id: tool.toolCallId, name: tool.toolName, arguments: tool.input };
  if (tool.approval) call.approval = tool.content === undefined ? tool.approval : { id: tool.approval.id };
  if (tool.providerExecuted) call.providerExecuted = true;
  return call;
}

function readMetadata(message: Record<string, unknown>, count: number): { ids?: string[]; timestamps?: number[] } {
  const metadata = message.metadata;
  if (metadata === null || typeof metadata !== "object") return {};
  const agentcore = (metadata as Record<string, unknown>).agentcore;
  if (agentcore === null || typeof agentcore !== "object") return {};
  const { ids, timestamps } = agentcore as Record<string, unknown>;
  const validIds =
    Array.isArray(ids) &&
    ids.length === count &&
    ids.every((id) => typeof id === "string" && id.length > 0 && id.length <= 512)
      ? (ids as string[])
      : undefined;
  const validTimestamps =
    Array.isArray(timestamps) &&
    timestamps.length === count &&
    timestamps.every((time) => typeof time === "number" && Number.isFinite(time) && time >= 0)
      ? (timestamps as number[])
      : undefined;
  return { ...(validIds ? { ids: validIds } : {}), ...(validTimestamps ? { timestamps: validTimestamps } : {}) };
}

function readCreatedAt(message: Record<string, unknown>): number | undefined {
  const value = message.createdAt;
  if (value === undefined || value === null) return undefined;
  const time =
    value instanceof Date
      ? value.getTime()
      : typeof value === "string" || typeof value === "number"
        ? new Date(value).getTime()
        : Number.NaN;
  if (!Number.isFinite(time) || time < 0)
    throw new Issue("createdAt", "expected a date (ISO string, milliseconds or Date)");
  return time;
}

/** Puts `id` first and `timestamp` last, as messages are written elsewhere (stable JSON). */
function orderKeys(message: AgentMessage): AgentMessage {
  const { id, timestamp, ...rest } = message;
  return {
    ...(id === undefined ? {} : { id }),
    ...rest,
    ...(timestamp === undefined ? {} : { timestamp }),
  } as AgentMessage;
}
