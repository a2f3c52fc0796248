import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { contentText } from "../messages/content-text";
import type { AgentMessage } from "../messages/agent-message";
import type { MemoryTags, RecallWriteOptions } from "./memory-provider";

/**
 * What a recall provider keeps beside each remembered message: its scope, author, tags and time.
 * The one metadata shape of `SemanticMemoryProvider`'s documents and `VectorMemoryProvider`'s items.
 */
export interface MemoryItemMetadata {
  sessionId?: string;
  userId?: string;
  agentName?: string;
  /** Tags given at write time; a key/value tag `{ topic: "billing" }` is kept as `"topic=billing"`. */
  tags: string[];
  role?: AgentMessage["role"];
  /** When the message was written (ms since the epoch). */
  createdAt: number;
}

/** Which memories a search or listing may see. Every given field must match. */
export interface MemoryFilter {
  sessionId?: string;
  userId?: string;
  /** Memories carrying every one of these tags. */
  tags?: string[];
}

/**
 * Tags as the list providers keep: a list as given, key/value tags as `"key=value"` (so
 * `{ topic: "billing" }` and `["topic=billing"]` are the same tag). A key may not hold `=`.
 */
export function tagList(tags: MemoryTags | undefined, argument = "tags"): string[] {
  if (tags === undefined || tags === null) return [];
  if (Array.isArray(tags)) {
    tags.forEach((tag, index) => {
      if (typeof tag !== "string")
        throw new InvalidArgumentError({
          argument: `${argument}[${index}]`,
          value: tag,
          message: `${argument} must be strings or a Record<string, string>.`,
        });
    });
    return [...(tags as readonly string[])];
  }
  if (typeof tags !== "object") {
    throw new InvalidArgumentError({
      argument,
      value: tags,
      message: `${argument} must be a list of strings or a Record<string, string>.`,
    });
  }
  return Object.entries(tags).map(([key, value]) => {
    if (typeof value !== "string")
      throw new InvalidArgumentError({
        argument: `${argument}.${key}`,
        value,
        message: `${argument}.${key} must be a string.`,
      });
    if (key.includes("="))
      throw new InvalidArgumentError({
        argument: `${argument}.${key}`,
        message: `A tag key may not contain "=" (${JSON.stringify(key)}).`,
      });
    return `${key}=${value}`;
  });
}

/** Tags read back as key/value tags: `"key=value"` → `{ key: "value" }`, a plain tag `"x"` → `{ x: "" }`. */
export function tagRecord(tags: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (const tag of tags) {
    const at = tag.indexOf("=");
    if (at === -1) record[tag] = "";
    else record[tag.slice(0, at)] = tag.slice(at + 1);
  }
  return record;
}

/** Whether metadata passes a filter: every given scope field equal, every filter tag present. */
export function matchesMemoryFilter(
  metadata: Partial<Pick<MemoryItemMetadata, "sessionId" | "userId" | "tags">>,
  filter: MemoryFilter,
): boolean {
  if (filter.sessionId !== undefined && metadata.sessionId !== filter.sessionId) return false;
  if (filter.userId !== undefined && metadata.userId !== filter.userId) return false;
  if (filter.tags?.length) {
    const own = Array.isArray(metadata.tags) ? metadata.tags : [];
    if (!filter.tags.every((tag) => own.includes(tag))) return false;
  }
  return true;
}

/** The messages of a finished turn worth remembering: the configured roles, with text (of text parts, for parts). */
export function rememberable(
  messages: readonly AgentMessage[],
  roles: ReadonlySet<AgentMessage["role"]>,
): AgentMessage[] {
  return messages.filter((message) => roles.has(message.role) && contentText(message.content).trim() !== "");
}

/** The metadata of one remembered message. `now` stands in for a message without a timestamp. */
export function memoryMetadata(
  message: AgentMessage,
  scope: { sessionId: string | undefined; userId: string | undefined },
  options: RecallWriteOptions,
  now: number,
): MemoryItemMetadata & { role: AgentMessage["role"] } {
  return {
    ...(scope.sessionId !== undefined ? { sessionId: scope.sessionId } : {}),
    ...(scope.userId !== undefined ? { userId: scope.userId } : {}),
    ...(options.agentName ? { agentName: options.agentName } : {}),
    tags: tagList(options.tags),
    role: message.role,
    createdAt: message.timestamp ?? now,
  };
}
