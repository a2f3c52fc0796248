import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { MAX_APPROVAL_REASON_LENGTH, parseAgentMessages, type UserMessage } from "../messages/agent-message";
import type { ResolvedMessageLimits } from "../messages/message-limits";
import type { AgentRunOptions } from "./agent-options";
import { validateMessageIdArgument } from "../messages/message-ids";
import type { ToolApprovalResponse } from "./agent-result";

/** Longest user input accepted as a string, in characters. */
const MAX_INPUT_LENGTH = 1_000_000;

/**
 * `run()`'s argument as options, its input checked: a non-empty string of at most
 * `MAX_INPUT_LENGTH` characters (an `InvalidArgumentError` otherwise), or an array of user parts,
 * parsed as a user message's content within `limits` (an `InvalidMessageError` naming the part
 * and field otherwise).
 */
export function normaliseRunInput(input: string | AgentRunOptions, limits: ResolvedMessageLimits): AgentRunOptions {
  const given = typeof input === "string" ? { input } : input;
  const options =
    given != null && typeof given === "object" && given.approvals !== undefined
      ? { ...given, approvals: parseApprovals(given.approvals) }
      : given;
  if (options != null && typeof options === "object" && (options.regenerate || options.replaceFrom !== undefined))
    checkRewind(options);
  if (options?.regenerate === true) return options;
  // A run that only answers tool approvals has no new user message.
  if (options?.input === undefined && options?.approvals?.length) return options;
  if (
    options == null ||
    typeof options !== "object" ||
    !(typeof options.input === "string" || Array.isArray(options.input))
  ) {
    throw new InvalidArgumentError({
      argument: "input",
      value: input,
      message:
        "run() takes the user message as a string, an array of parts, or { input: string | parts, sessionId?, userId?, signal?, approvals?, replaceFrom? } (input may be left out when approvals answer tool calls); or { sessionId, regenerate: true } to answer the last user message again.",
    });
  }
  if (Array.isArray(options.input)) return { ...options, input: parseInputParts(options.input, limits) };
  if (options.input.trim().length === 0) {
    throw new InvalidArgumentError({ argument: "input", value: options.input, message: "input must not be empty." });
  }
  if (options.input.length > MAX_INPUT_LENGTH) {
    throw new InvalidArgumentError({
      argument: "input",
      message: `input is ${options.input.length} characters long; the limit is ${MAX_INPUT_LENGTH}.`,
    });
  }
  return options;
}

/** Checks `regenerate` and `replaceFrom`: a regenerate takes no input, an edit names a message id. */
function checkRewind(options: AgentRunOptions): void {
  if (options.regenerate !== undefined && typeof options.regenerate !== "boolean") {
    throw new InvalidArgumentError({
      argument: "regenerate",
      value: options.regenerate,
      message: "regenerate must be true or false.",
    });
  }
  if (options.regenerate === true && options.input !== undefined) {
    throw new InvalidArgumentError({
      argument: "input",
      message:
        "regenerate answers the stored user message again and takes no input. To change that message, pass the new input with replaceFrom: <its id>.",
    });
  }
  if (options.regenerate === true && options.replaceFrom !== undefined) {
    throw new InvalidArgumentError({
      argument: "replaceFrom",
      value: options.replaceFrom,
      message:
        "regenerate and replaceFrom cannot be combined: regenerate answers the last user message again, replaceFrom replaces a user message with input.",
    });
  }
  if (options.replaceFrom !== undefined) validateMessageIdArgument(options.replaceFrom, "replaceFrom");
  if (options.approvals?.length) {
    throw new InvalidArgumentError({
      argument: "approvals",
      message:
        "approvals continue a turn that waits for them; a regenerate or an edit replaces a turn. Answer the approvals first, then regenerate.",
    });
  }
}

function parseInputParts(parts: unknown[], limits: ResolvedMessageLimits): Exclude<UserMessage["content"], string> {
  let message: UserMessage;
  try {
    [message] = parseAgentMessages([{ role: "user", content: parts }], { source: "input", limits }) as [UserMessage];
  } catch (error) {
    if (!InvalidMessageError.isInstance(error)) throw error;
    const issues = error.issues.map((issue) => ({ ...issue, path: issue.path.replace(/^content\.?/, "") }));
    const summary = issues
      .slice(0, 5)
      .map((issue) => `input${issue.path ? ` part ${issue.path}` : ""}: ${issue.message}`)
      .join("; ");
    throw new InvalidMessageError({ issues, message: `Invalid input: ${summary}`, cause: error });
  }
  const content = message.content as Exclude<UserMessage["content"], string>;
  const empty = content.every((part) => part.type === "text" && part.text.trim().length === 0);
  if (empty) {
    throw new InvalidArgumentError({
      argument: "input",
      message: "input must not be empty: give a non-empty text part, an image or a file.",
    });
  }
  return content;
}

const approvalsSchema = z
  .array(
    z.strictObject({
      toolCallId: z.string().min(1).max(512),
      approved: z.boolean(),
      reason: z.string().max(MAX_APPROVAL_REASON_LENGTH).optional(),
      approvalId: z.string().min(1).max(512).optional(),
    }),
  )
  .max(1000);

/** `approvals` checked: `{ toolCallId, approved, reason?, approvalId? }` each, a call answered once (an `InvalidArgumentError` naming the entry otherwise). */
function parseApprovals(approvals: unknown): ToolApprovalResponse[] {
  const parsed = approvalsSchema.safeParse(approvals);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = ["approvals", ...issue.path].join(".");
    throw new InvalidArgumentError({
      argument: path,
      value: approvals,
      message: `${path}: ${issue.message}. approvals takes [{ toolCallId: string, approved: boolean, reason?: string, approvalId?: string }].`,
    });
  }
  const seen = new Set<string>();
  parsed.data.forEach((approval, index) => {
    if (seen.has(approval.toolCallId)) {
      throw new InvalidArgumentError({
        argument: `approvals.${index}.toolCallId`,
        value: approval.toolCallId,
        message: `approvals answers tool call "${approval.toolCallId}" twice: a call is answered once.`,
      });
    }
    seen.add(approval.toolCallId);
  });
  return parsed.data as ToolApprovalResponse[];
}
