import { ToolApprovalNotPendingError } from "../errors/tool-approval-not-pending-error";
import { ToolApprovalPendingError } from "../errors/tool-approval-pending-error";
import type { AgentMessage, ToolCall, ToolMessage } from "../messages/agent-message";
import { deniedToolContent } from "../messages/denied-tool-content";
import type { PendingApprovalStep } from "../messages/pending-approvals";
import { needsApproval } from "../tools/needs-approval";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart, ToolApprovalRequest, ToolApprovalResponse } from "./agent-result";
import { newId } from "./new-id";
import { runTools } from "./run-tools";
import type { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";

/**
 * Tool approval, human in the loop (docs/approvals.md). The pending state is the stored step
 * itself: the assistant message whose calls carry `approval: { id }` and have no tool message
 * yet. An answer is consumed by appending the call's tool message under the session's lock, so
 * a replay or a second tab finds the call no longer pending; a denial is stored as the tool
 * message that gives the model the user's reason. An approved call is claimed first (its tool
 * message marked `outcomeUnknown`, appended fenced before the tool runs), then the claim is
 * replaced by the result: a stalled run's tool never runs twice.
 */

/**
 * The reason given for a call denied by a new user message (`pendingApprovals: "deny"`), stored
 * as the denial's reason and told to the model.
 */
export const NEW_MESSAGE_DENIAL =
  "Not approved: the user sent a new message instead of answering this approval request.";

/**
 * What the model is told of an approved call whose tool was started and whose result was never
 * recorded: the run that ran it stopped (it crashed, or lost its lock) in between.
 */
export const OUTCOME_UNKNOWN_CONTENT =
  "Error: outcome unknown: the tool was started and its result was not recorded. It may or may not have taken effect.";

/**
 * An approved call's claim: its tool message as stored before the tool runs (`outcomeUnknown`),
 * replaced by the tool's result once it is known.
 */
function claimOf(call: ToolCall, reason: string | undefined): ToolMessage {
  return {
    id: newId(),
    role: "tool",
    toolCallId: call.id,
    name: call.name,
    content: OUTCOME_UNKNOWN_CONTENT,
    approval: { approved: true, ...(reason === undefined ? {} : { reason }) },
    outcomeUnknown: true,
    timestamp: Date.now(),
  };
}

/**
 * The step's calls, those that need the user's approval marked with a new approval id, and the
 * requests for them. The other calls run as usual.
 */
export async function markApprovals(
  config: AgentConfig,
  run: TurnRun,
  toolCalls: ToolCall[],
  window: readonly AgentMessage[],
): Promise<{ calls: ToolCall[]; requests: ToolApprovalRequest[] }> {
  const requests: ToolApprovalRequest[] = [];
  const calls: ToolCall[] = [];
  for (const call of toolCalls) {
    const asks = await needsApproval(config.tools, call, {
      sessionId: run.sessionId,
      runId: run.runId,
      ...(run.userId ? { userId: run.userId } : {}),
      ...(run.abortSignal ? { abortSignal: run.abortSignal } : {}),
      messages: window,
      model: config.model,
      context: run.context,
    });
    if (!asks) {
      calls.push(call);
      continue;
    }
    const approvalId = newId();
    calls.push({ ...call, approval: { id: approvalId } });
    requests.push({ approvalId, toolCallId: call.id, toolName: call.name, input: call.arguments });
  }
  return { calls, requests };
}

/** The requests of the calls of a stored step that still await an answer. */
export function pendingRequests(step: PendingApprovalStep): ToolApprovalRequest[] {
  return step.pending.map((call) => ({
    approvalId: call.approval.id,
    toolCallId: call.id,
    toolName: call.name,
    input: call.arguments,
  }));
}

/**
 * The run's answers to the step awaiting approval at the session's end (`pending`), before
 * anything else of the run: each answer must name a call that awaits one (else a
 * `ToolApprovalNotPendingError`, nothing run); approved calls run, denied ones get the tool
 * message with the user's reason; the step is put back first in the log and the new tool messages
 * appended (under the session's lock the run holds). A new input while calls stay unanswered denies
 * them (`pendingApprovals: "deny"`, the default) or is a `ToolApprovalPendingError` ("reject").
 * Returns the requests still waiting (the run then stops for them).
 */
export async function* answerApprovals(
  config: AgentConfig,
  run: TurnRun,
  pending: PendingApprovalStep | undefined,
  window: readonly AgentMessage[],
  log: TurnLog,
): AsyncGenerator<AgentStreamPart, ToolApprovalRequest[]> {
  const answers = new Map<string, ToolApprovalResponse>();
  for (const answer of run.approvals) {
    const call = pending?.pending.find((candidate) => candidate.id === answer.toolCallId);
    if (!call || (answer.approvalId !== undefined && answer.approvalId !== call.approval.id)) {
      throw new ToolApprovalNotPendingError({
        sessionId: run.sessionId,
        toolCallId: answer.toolCallId,
        approvalId: answer.approvalId,
      });
    }
    answers.set(call.id, answer);
  }
  if (!pending) return [];
  let waiting = pending.pending.filter((call) => !answers.has(call.id));
  if (run.input !== undefined && waiting.length > 0) {
    if (config.pendingApprovals === "reject") {
      throw new ToolApprovalPendingError({ sessionId: run.sessionId, toolCallIds: waiting.map((call) => call.id) });
    }
    // The new message denies what it leaves unanswered, with the reason stated (the turn goes on).
    for (const call of waiting) {
      answers.set(call.id, { toolCallId: call.id, approved: false, reason: NEW_MESSAGE_DENIAL });
    }
    waiting = [];
  }
  log.restore(pending.assistant, ...pending.results);
  if (answers.size === 0) return pendingRequests({ ...pending, pending: waiting });

  const approved = pending.pending.filter((call) => answers.get(call.id)?.approved === true);
  // Claimed in the store before they run: a later answer finds them answered, a run that lost its
  // lock is refused here, and a run that stops before their results leaves them `outcomeUnknown`.
  const claims = approved.map((call) => claimOf(call, answers.get(call.id)!.reason));
  await log.claim(claims);
  const outcome = approved.length > 0 ? await runTools(config, run, 0, approved, window, log) : undefined;
  const messages = new Map<string, ToolMessage>();
  outcome?.messages.forEach((message) => {
    const reason = answers.get(message.toolCallId)!.reason;
    messages.set(message.toolCallId, {
      ...message,
      approval: { approved: true, ...(reason === undefined ? {} : { reason }) },
    });
  });
  if (outcome) {
    log.addAnswered(outcome.results);
    yield* outcome.parts;
  }
  for (const call of pending.pending) {
    const answer = answers.get(call.id);
    if (!answer || answer.approved) continue;
    const content = deniedToolContent(answer.reason);
    messages.set(call.id, {
      id: newId(),
      role: "tool",
      toolCallId: call.id,
      name: call.name,
      content,
      approval: { approved: false, ...(answer.reason === undefined ? {} : { reason: answer.reason }) },
      timestamp: Date.now(),
    });
    log.addAnswered([{ toolCallId: call.id, toolName: call.name, result: content, isError: true, denied: true }]);
    yield* run.notifier.tell({
      type: "tool:result",
      step: 0,
      toolCallId: call.id,
      toolName: call.name,
      result: content,
      isError: true,
      denied: true,
      durationMs: 0,
    });
  }
  // In the order of the calls; stored before the model is called again (a crash keeps the answers).
  log.add(...pending.pending.flatMap((call) => messages.get(call.id) ?? []));
  await log.persist(); // in place of the claims
  return pendingRequests({ ...pending, pending: waiting });
}
