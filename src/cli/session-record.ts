import { decodeStoredMessages, encodeStoredMessage, encodeStoredMessages } from "../messages/stored-encoding";
import { createHash } from "node:crypto";
import { errorText } from "../errors/error-text";
import { z } from "zod";
import { parseAgentMessages, type AgentMessage } from "../messages/agent-message";
import type { Fact, SummaryRecord } from "../stores/memory-store";
import { validateSessionId } from "../messages/session-id";
import { CliError } from "./cli-error";

/** One line of an export: a whole session. */
export interface SessionRecord {
  kind: "agentcore.session";
  version: 1;
  sessionId: string;
  messages: AgentMessage[];
  facts: Fact[];
  summaries?: SummaryRecord[];
  metadata?: { createdAt?: number; accessedAt?: number; agentName?: string; tags?: string[] };
}

/**
 * One line of an export: the facts of one scope that no session line carries (facts kept per
 * user, `user:<id>`, or those of a session without messages).
 */
export interface FactsRecord {
  kind: "agentcore.facts";
  version: 1;
  scopeId: string;
  facts: Fact[];
}

const factSchema = z.object({
  key: z.string().min(1).max(256),
  value: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  messageId: z.string().optional(),
});

const summarySchema = z.object({
  id: z.string().min(1),
  content: z.string(),
  fromMessageId: z.string(),
  toMessageId: z.string(),
  messageCount: z.number().int().nonnegative(),
  model: z.string(),
  createdAt: z.number(),
  tokenCount: z.number().optional(),
});

const recordSchema = z.object({
  kind: z.literal("agentcore.session"),
  version: z.literal(1),
  sessionId: z.string(),
  messages: z.array(z.unknown()),
  facts: z.array(factSchema).default([]),
  summaries: z.array(summarySchema).optional(),
  metadata: z
    .object({
      createdAt: z.number().optional(),
      accessedAt: z.number().optional(),
      agentName: z.string().optional(),
      tags: z.array(z.string()).optional(),
    })
    .optional(),
});

const factsRecordSchema = z.object({
  kind: z.literal("agentcore.facts"),
  version: z.literal(1),
  scopeId: z.string(),
  facts: z.array(factSchema),
});

/** Parses one line of an export file; a bad line is a `CliError` naming the line and field. */
export function parseSessionRecord(line: string, lineNumber: number): SessionRecord | FactsRecord {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new CliError(`line ${lineNumber} is not JSON`);
  }
  if ((json as { kind?: unknown } | null)?.kind === "agentcore.facts") return parseFactsRecord(json, lineNumber);
  const result = recordSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new CliError(`line ${lineNumber}: ${issue.path.join(".") || "record"}: ${issue.message}`);
  }
  try {
    validateSessionId(result.data.sessionId);
    const messages = parseAgentMessages(decodeStoredMessages(result.data.messages), {
      source: `line ${lineNumber} messages`,
    });
    const { metadata, summaries, ...rest } = result.data;
    return {
      ...rest,
      messages,
      facts: result.data.facts.map((fact) => ({ ...fact })) as Fact[],
      ...(summaries ? { summaries: summaries as SummaryRecord[] } : {}),
      ...(metadata ? { metadata: metadata as NonNullable<SessionRecord["metadata"]> } : {}),
    };
  } catch (error) {
    throw new CliError(`line ${lineNumber}: ${errorText(error)}`);
  }
}

function parseFactsRecord(json: unknown, lineNumber: number): FactsRecord {
  const result = factsRecordSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new CliError(`line ${lineNumber}: ${issue.path.join(".") || "record"}: ${issue.message}`);
  }
  const { scopeId } = result.data;
  const [, namespace, id] = /^(session|user):(.*)$/s.exec(scopeId) ?? [];
  try {
    if (namespace === undefined)
      throw new Error(`scopeId must be "session:<id>" or "user:<id>", got ${JSON.stringify(scopeId.slice(0, 80))}`);
    validateSessionId(id, namespace === "user" ? "userId" : "sessionId");
  } catch (error) {
    throw new CliError(`line ${lineNumber}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { ...result.data, facts: result.data.facts.map((fact) => ({ ...fact })) as Fact[] };
}

/** One line of an export: JSON, messages in the stored encoding (bytes as base64, URLs as hrefs). */
export function serializeRecord(record: SessionRecord | FactsRecord): string {
  if (record.kind === "agentcore.facts") return JSON.stringify(record);
  return JSON.stringify({ ...record, messages: encodeStoredMessages(record.messages) });
}

/**
 * The id of a message imported without one: a hash of its session, position, role and content,
 * so importing the same file again skips it as already stored.
 */
export function importedMessageId(sessionId: string, position: number, given: AgentMessage): string {
  const message = encodeStoredMessage(given); // bytes hash as their base64, the same on every import
  const content =
    message.role === "tool"
      ? [message.toolCallId, message.content]
      : message.role === "assistant"
        ? [message.content, message.toolCalls ?? []]
        : [message.content];
  const hash = createHash("sha256")
    .update(JSON.stringify([sessionId, position, message.role, ...content]))
    .digest("hex");
  return `import-${hash.slice(0, 32)}`;
}
