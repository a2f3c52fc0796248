import type { AgentRunOptions } from "../agent/agent-options";
import { newId } from "../agent/new-id";
import type { OutputSpec } from "../agent/output-spec";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { type AgentMessage, parseAgentMessages, type UserMessage } from "../messages/agent-message";
import type { MessageLimits } from "../messages/message-limits";
import { messageIdIssue, validateMessageIdArgument } from "../messages/message-ids";
import { repairToolPairing } from "../messages/repair-tool-pairing";
import { answeredApprovals } from "../ui/answered-approvals";

/** What `requestToRun` reads of `streamText`'s options (`StreamTextOptions`). */
export interface RunRequest {
  messages: AgentMessage[];
  sessionId?: string | undefined;
  userId?: string | undefined;
  trigger?: "submit-message" | "regenerate-message" | undefined;
  messageId?: string | undefined;
  allowSystemMessages?: boolean | undefined;
  output?: OutputSpec | undefined;
  /** Whether a store is given: approvals continue the stored turn. */
  memoryStore?: unknown;
  messageLimits?: MessageLimits | undefined;
}

/** The run a request asks for (`streamText`), without the abort signal, which the response owns. */
export interface RequestRun {
  /**
   * - `stateless`: no `sessionId`: a run on the client's messages as sent, in a session of its own.
   * - `session`: the new user message, on the stored session.
   * - `regenerate`: the stored turn answered again (from `regenerateFrom` when given).
   * - `approval`: the stored turn goes on with the user's answers to its tool approvals.
   * - `edit`: the new user message replaces the stored one with its id and what follows it.
   */
  kind: "stateless" | "session" | "regenerate" | "approval" | "edit";
  /** `agent.stream`'s options: the run's session (`request-<uuid>` when stateless), its input. */
  runOptions: AgentRunOptions & { sessionId: string };
  /** Stateless: the history the run goes on (the client's messages before the last, without system messages, pairing restored). */
  history?: AgentMessage[];
  /** A regenerate's `messageId`: the user message at or before it is answered again. */
  regenerateFrom?: string;
  /** The client's id for the new user message, stored under it (stored mode, a usable id). */
  userMessageId?: string;
  /** The id the answer's first assistant message is stored under and the UI stream announces (none when the run continues a turn). */
  assistantMessageId?: string;
  /** The run continues the assistant message the client shows (approvals): the UI stream starts no new one. */
  continues: boolean;
  /** The client's system messages, when `allowSystemMessages` lets them reach the model. */
  clientSystem: string[];
}

/**
 * Maps a `streamText` request to its run: checks `trigger` and `messageId`, parses the messages, and
 * tells which of the five kinds of run it is. Refuses, with an `InvalidArgumentError`, a conversation
 * that ends neither with a user message nor with answers to tool approvals, and answers without a
 * store and a session to continue.
 */
export function requestToRun(request: RunRequest): RequestRun {
  const { sessionId, userId, trigger = "submit-message", messageId, output } = request;
  if (trigger !== "submit-message" && trigger !== "regenerate-message") {
    throw new InvalidArgumentError({
      argument: "trigger",
      value: trigger,
      message: 'trigger must be "submit-message" or "regenerate-message" (what useChat sends).',
    });
  }
  if (messageId !== undefined) validateMessageIdArgument(messageId);
  // With the store as the source of truth, a regenerate answers the stored turn: no new message.
  const regenerate = trigger === "regenerate-message" && sessionId !== undefined;
  const messages = parseAgentMessages(request.messages, {
    source: "streamText messages",
    ...(request.messageLimits === undefined ? {} : { limits: request.messageLimits }),
  });
  const last = messages.at(-1);
  // A useChat request that answers tool approvals ends with the assistant message carrying them (approval-responded).
  const approvals = regenerate ? [] : answeredApprovals(messages);
  if (!regenerate && approvals.length === 0 && last?.role !== "user") {
    throw new InvalidArgumentError({
      argument: "messages",
      message:
        "streamText needs the conversation to end with the new user message (convertToModelMessages(uiMessages)), or with the user's answers to tool approvals.",
    });
  }
  if (approvals.length > 0 && (sessionId === undefined || !request.memoryStore)) {
    throw new InvalidArgumentError({
      argument: "sessionId",
      message:
        "Tool approvals continue the stored turn that asked for them: pass memoryStore and sessionId (the store keeps the pending calls; a client cannot answer calls it was never asked about).",
    });
  }
  const clientSystem = request.allowSystemMessages
    ? messages.filter((message) => message.role === "system").map((message) => message.content)
    : [];
  const common = {
    sessionId: sessionId ?? `request-${globalThis.crypto.randomUUID()}`,
    ...(userId === undefined ? {} : { userId }),
    ...(output === undefined ? {} : { output }),
  };
  if (sessionId === undefined) {
    // Stateless: the run goes on the client's history as given, in a session of its own.
    const history = repairToolPairing(messages.slice(0, -1).filter((message) => message.role !== "system")).messages;
    const runOptions = { input: (last as UserMessage).content, ...common };
    return { kind: "stateless", runOptions, history, assistantMessageId: newId(), continues: false, clientSystem };
  }
  if (regenerate) {
    return {
      kind: "regenerate",
      runOptions: { regenerate: true, ...common },
      ...(messageId === undefined ? {} : { regenerateFrom: messageId }),
      assistantMessageId: newId(),
      continues: false,
      clientSystem,
    };
  }
  if (approvals.length > 0)
    return { kind: "approval", runOptions: { approvals, ...common }, continues: true, clientSystem };
  // useChat's edit (sendMessage({ text, messageId })) ends with the user message it replaces, under that id.
  const edit = messageId !== undefined && last?.id === messageId;
  const input = (last as UserMessage).content;
  return {
    kind: edit ? "edit" : "session",
    runOptions: { input, ...(edit ? { replaceFrom: messageId } : {}), ...common },
    // The ids the page shows are the stored ones: the new user message keeps the client's id (a malformed
    // one, or one the session holds, gets a new id).
    ...(usableMessageId(last?.id) ? { userMessageId: last!.id } : {}),
    assistantMessageId: newId(),
    continues: false,
    clientSystem,
  };
}

/** A client's message id that can be stored as it is: a message id (`validateMessageIdArgument`) of at most 512 characters. */
function usableMessageId(id: string | undefined): id is string {
  return id !== undefined && id.length > 0 && id.length <= 512 && messageIdIssue(id) === undefined;
}
