import type { AgentMessage } from "../messages/agent-message";
import type { MemoryWriteOptions } from "./memory-provider";

/** What a provider records beside each remembered message: its scope, author and time. */
export interface MemoryMetadata {
  sessionId?: string;
  userId?: string;
  agentName?: string;
  tags: string[];
  role: AgentMessage["role"];
  createdAt: number;
}

/** The messages of a finished turn worth remembering: the configured roles, with text. */
export function rememberable(messages: readonly AgentMessage[], roles: ReadonlySet<AgentMessage["role"]>): AgentMessage[] {
  return messages.filter((message) => roles.has(message.role) && typeof message.content === "string" && message.content.trim() !== "");
}

/** The metadata of one remembered message. `now` stands in for a message without a timestamp. */
export function memoryMetadata(
  message: AgentMessage,
  scope: { sessionId: string | undefined; userId: string | undefined },
  options: MemoryWriteOptions,
  now: number,
): MemoryMetadata {
  return {
    ...(scope.sessionId !== undefined ? { sessionId: scope.sessionId } : {}),
    ...(scope.userId !== undefined ? { userId: scope.userId } : {}),
    ...(options.agentName ? { agentName: options.agentName } : {}),
    tags: [...(options.tags ?? [])],
    role: message.role,
    createdAt: message.timestamp ?? now,
  };
}
