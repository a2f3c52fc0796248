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

/** Parses one line of an export file; a bad line is a `CliError` naming the line and field. */
export function parseSessionRecord(line: string, lineNumber: number): SessionRecord {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new CliError(`line ${lineNumber} is not JSON`);
  }
  const result = recordSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new CliError(`line ${lineNumber}: ${issue.path.join(".") || "record"}: ${issue.message}`);
  }
  try {
    validateSessionId(result.data.sessionId);
    const messages = parseAgentMessages(result.data.messages, { source: `line ${lineNumber} messages` });
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
