import { z } from "zod";
import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";

/** A tool call made by the model. `arguments` is the parsed JSON object. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface SystemMessage {
  id?: string;
  role: "system";
  content: string;
  timestamp?: number;
}

export interface UserMessage {
  id?: string;
  role: "user";
  content: string;
  timestamp?: number;
}

export interface AssistantMessage {
  id?: string;
  role: "assistant";
  content: string;
  toolCalls?: ToolCall[];
  timestamp?: number;
}

export interface ToolMessage {
  id?: string;
  role: "tool";
  toolCallId: string;
  name: string;
  content: string;
  timestamp?: number;
}

/**
 * The one canonical message shape (docs/architecture.md, "Messages and the pairing rule").
 * Persisted as is; provider adapters convert it to each wire format at the edge.
 */
export type AgentMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** A message as stored: it always has an id (the idempotency key) and a timestamp. */
export type StoredMessage = AgentMessage & { id: string; timestamp: number };

const idSchema = z.string().min(1).max(512);
const timestampSchema = z.number().finite().nonnegative();

export const toolCallSchema = z.object({
  id: z.string().min(1).max(512),
  name: z.string().min(1).max(256),
  arguments: z.record(z.string(), z.unknown()),
});

export const agentMessageSchema = z.discriminatedUnion("role", [
  z.object({
    id: idSchema.optional(),
    role: z.literal("system"),
    content: z.string(),
    timestamp: timestampSchema.optional(),
  }),
  z.object({
    id: idSchema.optional(),
    role: z.literal("user"),
    content: z.string(),
    timestamp: timestampSchema.optional(),
  }),
  z.object({
    id: idSchema.optional(),
    role: z.literal("assistant"),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
    timestamp: timestampSchema.optional(),
  }),
  z.object({
    id: idSchema.optional(),
    role: z.literal("tool"),
    toolCallId: z.string().min(1).max(512),
    name: z.string().min(1).max(256),
    content: z.string(),
    timestamp: timestampSchema.optional(),
  }),
]);

/**
 * Parses a list of messages that came from outside (a store, a request body). Returns the
 * parsed messages or throws an `InvalidMessageError` naming each message and field that was
 * wrong. Unknown fields are dropped.
 */
export function parseAgentMessages(input: unknown, options: { source?: string } = {}): AgentMessage[] {
  if (!Array.isArray(input)) {
    throw new InvalidMessageError({
      issues: [{ index: -1, path: "", message: `expected an array of messages, got ${describe(input)}` }],
      message: `${options.source ?? "Messages"} must be an array of messages, got ${describe(input)}.`,
    });
  }
  const issues: MessageIssue[] = [];
  const messages: AgentMessage[] = [];
  input.forEach((candidate, index) => {
    const quick = parseCommonMessage(candidate);
    if (quick !== undefined) {
      messages.push(quick);
      return;
    }
    const result = agentMessageSchema.safeParse(candidate);
    if (result.success) {
      messages.push(result.data as AgentMessage);
    } else {
      for (const issue of result.error.issues) {
        issues.push({ index, path: issue.path.join("."), message: issue.message });
      }
    }
  });
  if (issues.length > 0) {
    throw new InvalidMessageError({ issues });
  }
  return messages;
}

const toolCallsSchema = z.array(toolCallSchema);
const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The schema's answer for the messages every turn reads, without its machinery: a plain object
 * whose fields are all of the right type and size gives the same new object `agentMessageSchema`
 * would (declared fields in the schema's order, unknown ones dropped; tool calls through the
 * schema itself). Anything unusual (a missing or wrong field, a field present but undefined, an
 * odd prototype) gives undefined, and the schema then parses it and names what is wrong.
 */
function parseCommonMessage(candidate: unknown): AgentMessage | undefined {
  if (typeof candidate !== "object" || candidate === null || Object.getPrototypeOf(candidate) !== Object.prototype)
    return undefined;
  const record = candidate as Record<string, unknown>;
  const { role, content } = record;
  if (typeof content !== "string") return undefined;
  let id: string | undefined;
  if (hasOwn.call(record, "id")) {
    id = record.id as string;
    if (typeof id !== "string" || id.length < 1 || id.length > 512) return undefined;
  } else if ("id" in record) return undefined;
  let timestamp: number | undefined;
  if (hasOwn.call(record, "timestamp")) {
    timestamp = record.timestamp as number;
    if (typeof timestamp !== "number" || !Number.isFinite(timestamp) || timestamp < 0) return undefined;
  } else if ("timestamp" in record) return undefined;
  if (role === "user" || role === "system") {
    const message: Record<string, unknown> = {};
    if (id !== undefined) message.id = id;
    message.role = role;
    message.content = content;
    if (timestamp !== undefined) message.timestamp = timestamp;
    return message as unknown as AgentMessage;
  }
  if (role === "assistant") {
    let toolCalls: ToolCall[] | undefined;
    if (hasOwn.call(record, "toolCalls")) {
      const parsed = toolCallsSchema.safeParse(record.toolCalls);
      if (!parsed.success) return undefined;
      toolCalls = parsed.data as ToolCall[];
    } else if ("toolCalls" in record) return undefined;
    const message: Record<string, unknown> = {};
    if (id !== undefined) message.id = id;
    message.role = role;
    message.content = content;
    if (toolCalls !== undefined) message.toolCalls = toolCalls;
    if (timestamp !== undefined) message.timestamp = timestamp;
    return message as unknown as AgentMessage;
  }
  if (role === "tool") {
    const { toolCallId, name } = record;
    if (typeof toolCallId !== "string" || toolCallId.length < 1 || toolCallId.length > 512) return undefined;
    if (typeof name !== "string" || name.length < 1 || name.length > 256) return undefined;
    const message: Record<string, unknown> = {};
    if (id !== undefined) message.id = id;
    message.role = role;
    message.toolCallId = toolCallId;
    message.name = name;
    message.content = content;
    if (timestamp !== undefined) message.timestamp = timestamp;
    return message as unknown as AgentMessage;
  }
  return undefined;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
