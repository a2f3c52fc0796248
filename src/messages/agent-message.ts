import { z } from "zod";
import { InvalidMessageError, type MessageIssue } from "../errors/invalid-message-error";
import type { AssistantContentPart, ToolContentPart, UserContentPart } from "./content-parts";
import { contentLimitIssues, contentSchema } from "./content-schemas";
import { contentSizeBoundIssue } from "./content-size-bound";
import { type MessageLimits, type ResolvedMessageLimits, resolveMessageLimits } from "./message-limits";
import { copyMessage } from "./copy-messages";
import { type MessageMetadata, metadataProblem, readMessageMetadata } from "./message-metadata";

/** A tool call made by the model. `arguments` is the parsed JSON object. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /**
   * Set when the call needed the user's approval (its tool's `needsApproval`, docs/approvals.md):
   * `id` is the approval id (the AI SDK's `approvalId`, what `useChat`'s `addToolApprovalResponse`
   * sends back). A stored call with it and no tool message after it awaits the user's answer.
   * `approved` and `reason` are set only on a call converted from a UI `approval-responded` part:
   * the user's answer on its way to the server, never stored (the answer is stored as the tool message).
   */
  approval?: ToolCallApproval;
  /**
   * Set on a call the provider ran itself (a provider's web search, code execution): agentcore
   * never executes it; its result came from the provider. Kept so a `useChat` payload converts as
   * the `ai` package converts it and goes back to the UI as it came.
   */
  providerExecuted?: true;
}

/** A tool call's approval: its id, and the user's answer while it travels from a UI. */
export interface ToolCallApproval {
  id: string;
  approved?: boolean;
  reason?: string;
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
  /** Text, or text, image and file parts (docs/messages.md). */
  content: string | UserContentPart[];
  timestamp?: number;
}

export interface AssistantMessage {
  id?: string;
  role: "assistant";
  /** Text, or text and reasoning parts (docs/messages.md). */
  content: string | AssistantContentPart[];
  toolCalls?: ToolCall[];
  /**
   * What the run recorded about the message, never sent to a model (docs/messages.md, "Message
   * metadata"): agentcore's fields under `agentcore` (provider, model id, the step's usage, finish
   * reason, the model call's duration) and the app's own (`run({ metadata })`).
   */
  metadata?: MessageMetadata;
  /**
   * Set on the answer of a run stopped by `agent.stop` / `stopRun` (docs/streaming.md, "Stop"):
   * the text streamed until the stop, tool calls left without a result dropped.
   */
  finishReason?: "stopped";
  timestamp?: number;
}

export interface ToolMessage {
  id?: string;
  role: "tool";
  toolCallId: string;
  name: string;
  /** The result as text, or text and image parts (docs/messages.md). */
  content: string | ToolContentPart[];
  /**
   * The user's answer to a call that needed approval: approved (the content is what the tool
   * returned) or denied (the content gives the model the user's reason, and the tool never ran).
   */
  approval?: { approved: boolean; reason?: string };
  /**
   * The tool was started and its result was never recorded (docs/approvals.md, "A stalled
   * approver"): an approved call's claim, stored before the tool runs and replaced by its result;
   * left alone only when the run stopped in between. The content says so to the model.
   */
  outcomeUnknown?: true;
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

/** Longest reason a user may give with an approval answer, in characters. */
export const MAX_APPROVAL_REASON_LENGTH = 10_000;
const approvalReasonSchema = z.string().max(MAX_APPROVAL_REASON_LENGTH);

export const toolCallSchema = z.object({
  id: z.string().min(1).max(512),
  name: z.string().min(1).max(256),
  arguments: z.record(z.string(), z.unknown()),
  approval: z
    .object({ id: idSchema, approved: z.boolean().optional(), reason: approvalReasonSchema.optional() })
    .optional(),
  providerExecuted: z.literal(true).optional(),
});

/** A message's metadata: a plain object of JSON values, parsed into a copy (`readMessageMetadata`). */
const metadataSchema = z.unknown().transform((value, context) => {
  const metadata = readMessageMetadata(value);
  if (metadata === undefined) {
    context.addIssue({ code: "custom", message: metadataProblem(value) });
    return z.NEVER;
  }
  return metadata;
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
    content: contentSchema("user"),
    timestamp: timestampSchema.optional(),
  }),
  z.object({
    id: idSchema.optional(),
    role: z.literal("assistant"),
    content: contentSchema("assistant"),
    toolCalls: z.array(toolCallSchema).optional(),
    metadata: metadataSchema.optional(),
    finishReason: z.literal("stopped").optional(),
    timestamp: timestampSchema.optional(),
  }),
  z.object({
    id: idSchema.optional(),
    role: z.literal("tool"),
    toolCallId: z.string().min(1).max(512),
    name: z.string().min(1).max(256),
    content: contentSchema("tool"),
    approval: z.object({ approved: z.boolean(), reason: approvalReasonSchema.optional() }).optional(),
    outcomeUnknown: z.literal(true).optional(),
    timestamp: timestampSchema.optional(),
  }),
]);

/**
 * Parses a list of messages that came from outside (a store, a request body). Returns the
 * parsed messages or throws an `InvalidMessageError` naming each message and field that was
 * wrong (an unknown part type, malformed binary content, a part or message over `limits`).
 * Unknown fields are dropped. `limits`: the size bounds, default `MessageLimits`' defaults; history
 * read back from a store passes `noMessageLimits`. `stored`: the input is a store's own objects
 * (`stores/stored-tail.ts`), so the result must share no object with it. `metadata: false`: an
 * assistant message's `metadata` is left out, not read (a run's read of its history, which only a
 * model sees: every turn saves copying it).
 */
export function parseAgentMessages(
  input: unknown,
  options: {
    source?: string;
    limits?: MessageLimits | ResolvedMessageLimits;
    stored?: boolean;
    metadata?: boolean;
  } = {},
): AgentMessage[] {
  if (!Array.isArray(input)) {
    throw new InvalidMessageError({
      issues: [{ index: -1, path: "", message: `expected an array of messages, got ${describe(input)}` }],
      message: `${options.source ?? "Messages"} must be an array of messages, got ${describe(input)}.`,
    });
  }
  const limits = resolveMessageLimits(options.limits);
  const issues: MessageIssue[] = [];
  const messages: AgentMessage[] = [];
  const metadata = options.metadata !== false;
  input.forEach((given, index) => {
    let candidate: unknown = given;
    let quick = parseCommonMessage(candidate, metadata);
    // A store's own objects (`stored`): a common message without tool calls is rebuilt from strings
    // and numbers alone, anything else is parsed from a copy, so no result shares an object with the store.
    if (options.stored && (quick === undefined || "toolCalls" in quick)) {
      candidate = copyMessage(given);
      quick = parseCommonMessage(candidate, metadata);
    }
    if (quick !== undefined) {
      // String content: over the limit only when its UTF-8 bound (3 bytes a unit) is.
      if ((quick.content as string).length * 3 > limits.maxMessageBytes) {
        for (const issue of contentLimitIssues(quick.content, limits)) issues.push({ index, ...issue });
      }
      messages.push(quick);
      return;
    }
    // Parts over the limits by their lengths alone are refused before any part is validated.
    const early = contentSizeBoundIssue((candidate as { content?: unknown } | null)?.content, limits);
    if (early !== undefined) {
      issues.push({ index, ...early });
      return;
    }
    const result = agentMessageSchema.safeParse(candidate);
    if (result.success) {
      let message = result.data as AgentMessage;
      if (!metadata && message.role === "assistant" && message.metadata !== undefined) {
        const { metadata: _left, ...rest } = message;
        message = rest;
      }
      for (const issue of contentLimitIssues(message.content, limits)) issues.push({ index, ...issue });
      messages.push(message);
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
function parseCommonMessage(candidate: unknown, keepMetadata: boolean): AgentMessage | undefined {
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
    if ("finishReason" in record) return undefined; // a stopped answer: the schema parses it
    let metadata: MessageMetadata | undefined;
    if (!keepMetadata) {
      // Left out, not read.
    } else if (hasOwn.call(record, "metadata")) {
      metadata = readMessageMetadata(record.metadata);
      if (metadata === undefined) return undefined;
    } else if ("metadata" in record) return undefined;
    const message: Record<string, unknown> = {};
    if (id !== undefined) message.id = id;
    message.role = role;
    message.content = content;
    if (toolCalls !== undefined) message.toolCalls = toolCalls;
    if (metadata !== undefined) message.metadata = metadata;
    if (timestamp !== undefined) message.timestamp = timestamp;
    return message as unknown as AgentMessage;
  }
  if (role === "tool") {
    const { toolCallId, name } = record;
    if (typeof toolCallId !== "string" || toolCallId.length < 1 || toolCallId.length > 512) return undefined;
    if (typeof name !== "string" || name.length < 1 || name.length > 256) return undefined;
    if ("approval" in record) return undefined; // an approval answer: the schema parses it
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
