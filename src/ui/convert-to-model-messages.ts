import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";
import { messageIdIssue } from "../messages/message-ids";
import type { AgentMessage, AssistantMessage, ToolMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import { serializeToolResult } from "../messages/serialize-tool-result";
import { guardUIPayload, type PayloadLimits } from "./guard-payload";
import type { UIMessage } from "./ui-message";

export type ConvertToModelMessagesOptions = PayloadLimits;

type Segment =
  | { kind: "text"; text: string }
  | { kind: "step" }
  | { kind: "file"; mediaType: string; filename?: string }
  | { kind: "tool"; toolCallId: string; toolName: string; input: Record<string, unknown>; content?: string };

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const toolStates = new Set([
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
]);

class Issue extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Converts UI messages (untrusted JSON from a browser, AI SDK v4 or v5+ shape) into agent
 * messages. A tool invocation with a result becomes an assistant `toolCalls` entry plus a `tool`
 * message; incomplete calls are dropped, never sent. Reasoning parts are dropped; file parts
 * become a one-line note (agentcore messages carry text). Malformed input is an
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
  const pairing = findToolPairingIssues(output);
  if (pairing.length > 0) {
    throw new InvalidMessageError({
      issues: pairing,
      message: `The UI messages do not make a valid conversation: ${pairing[0]!.message} (a tool call id used twice?).`,
    });
  }
  return output;
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

function readSegments(message: Record<string, unknown>): Segment[] {
  if (Array.isArray(message.parts)) {
    return message.parts.flatMap((part, index) => readPart(part, `parts.${index}`));
  }
  if (typeof message.content !== "string")
    throw new Issue("parts", "expected `parts` (an array) or `content` (a string)");
  const segments: Segment[] = message.content.length > 0 ? [{ kind: "text", text: message.content }] : [];
  if (message.toolInvocations !== undefined) {
    if (!Array.isArray(message.toolInvocations)) throw new Issue("toolInvocations", "expected an array");
    message.toolInvocations.forEach((invocation, index) => {
      const segment = readInvocationV4(invocation, `toolInvocations.${index}`);
      if (segment) segments.push(segment);
    });
  }
  return segments;
}

function readPart(part: unknown, path: string): Segment[] {
  if (part === null || typeof part !== "object" || Array.isArray(part)) throw new Issue(path, "expected a part object");
  const value = part as Record<string, unknown>;
  const type = value.type;
  if (typeof type !== "string") throw new Issue(`${path}.type`, "expected a string");
  switch (type) {
    case "text":
      if (typeof value.text !== "string") throw new Issue(`${path}.text`, "expected a string");
      return [{ kind: "text", text: value.text }];
    case "reasoning":
      return [];
    case "step-start":
      return [{ kind: "step" }];
    case "file": {
      if (typeof value.mediaType !== "string") throw new Issue(`${path}.mediaType`, "expected a string");
      const filename = typeof value.filename === "string" ? value.filename : undefined;
      return [{ kind: "file", mediaType: value.mediaType, ...(filename === undefined ? {} : { filename }) }];
    }
    case "tool-invocation": {
      const segment = readInvocationV4(value.toolInvocation, `${path}.toolInvocation`);
      return segment ? [segment] : [];
    }
    case "dynamic-tool": {
      if (typeof value.toolName !== "string" || !toolNamePattern.test(value.toolName)) {
        throw new Issue(`${path}.toolName`, "expected a tool name of 1-64 letters, digits, _ or -");
      }
      const segment = readToolPart(value, value.toolName, path);
      return segment ? [segment] : [];
    }
    default:
      if (type.startsWith("tool-")) {
        const toolName = type.slice("tool-".length);
        if (!toolNamePattern.test(toolName))
          throw new Issue(`${path}.type`, "expected tool-<name> with a name of 1-64 letters, digits, _ or -");
        const segment = readToolPart(value, toolName, path);
        return segment ? [segment] : [];
      }
      return []; // sources, data parts and future part types carry nothing for the model
  }
}

function readToolPart(part: Record<string, unknown>, toolName: string, path: string): Segment | undefined {
  const toolCallId = readToolCallId(part.toolCallId, `${path}.toolCallId`);
  if (typeof part.state !== "string" || !toolStates.has(part.state)) {
    throw new Issue(`${path}.state`, `expected one of ${[...toolStates].join(", ")}`);
  }
  let content: string | undefined;
  if (part.state === "output-available") content = serializeToolResult(part.output);
  else if (part.state === "output-error")
    content = `Error: ${typeof part.errorText === "string" ? part.errorText : "the tool failed"}`;
  else if (part.state === "output-denied") content = "Error: the user denied this tool call.";
  else return undefined; // incomplete: never sent
  return { kind: "tool", toolCallId, toolName, input: readInput(part.input, `${path}.input`), content };
}

function readInvocationV4(invocation: unknown, path: string): Segment | undefined {
  if (invocation === null || typeof invocation !== "object" || Array.isArray(invocation))
    throw new Issue(path, "expected a tool invocation object");
  const value = invocation as Record<string, unknown>;
  const toolCallId = readToolCallId(value.toolCallId, `${path}.toolCallId`);
  if (typeof value.toolName !== "string" || !toolNamePattern.test(value.toolName)) {
    throw new Issue(`${path}.toolName`, "expected a tool name of 1-64 letters, digits, _ or -");
  }
  if (value.state !== "result" && value.state !== "call" && value.state !== "partial-call") {
    throw new Issue(`${path}.state`, 'expected "partial-call", "call" or "result"');
  }
  if (value.state !== "result") return undefined; // incomplete: never sent
  return {
    kind: "tool",
    toolCallId,
    toolName: value.toolName,
    input: readInput(value.args, `${path}.args`),
    content: serializeToolResult(value.result),
  };
}

function readToolCallId(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 512)
    throw new Issue(path, "expected a non-empty string of at most 512 characters");
  const issue = messageIdIssue(value);
  if (issue !== undefined) throw new Issue(path, `the tool call id ${issue}`);
  return value;
}

function readInput(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw new Issue(path, "expected the tool input to be a JSON object");
  return value as Record<string, unknown>;
}

function buildText(role: "user" | "system", segments: Segment[]): AgentMessage[] {
  const lines: string[] = [];
  for (const segment of segments) {
    if (segment.kind === "text") lines.push(segment.text);
    else if (segment.kind === "file")
      lines.push(`[Attached file${segment.filename ? `: ${segment.filename}` : ""} (${segment.mediaType})]`);
  }
  return [{ role, content: lines.join("\n") }];
}

/** Splits an assistant UI message into steps: each step's text and completed tool calls, then their results. */
function buildAssistant(segments: Segment[]): AgentMessage[] {
  const produced: AgentMessage[] = [];
  let text: string[] = [];
  let tools: Extract<Segment, { kind: "tool" }>[] = [];
  const flush = () => {
    if (text.length === 0 && tools.length === 0) return;
    const assistant: AssistantMessage = { role: "assistant", content: text.join("\n") };
    if (tools.length > 0)
      assistant.toolCalls = tools.map((tool) => ({ id: tool.toolCallId, name: tool.toolName, arguments: tool.input }));
    produced.push(assistant);
    for (const tool of tools) {
      produced.push({
        role: "tool",
        toolCallId: tool.toolCallId,
        name: tool.toolName,
        content: tool.content!,
      } satisfies ToolMessage);
    }
    text = [];
    tools = [];
  };
  for (const segment of segments) {
    if (segment.kind === "step") flush();
    else if (segment.kind === "text") {
      if (tools.length > 0) flush(); // text after the calls of a step answers their results
      text.push(segment.text);
    } else if (segment.kind === "tool") tools.push(segment);
  }
  flush();
  return produced;
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
