import { NoObjectGeneratedError } from "../errors/no-object-generated-error";
import type { AgentMessage } from "../messages/agent-message";
import { addUsage, type LanguageModelCall, type LanguageModelResult } from "../models/language-model";
import type { AgentConfig } from "./agent-config";
import type { AgentStreamPart } from "./agent-result";
import { callModel } from "./call-model";
import { parseObjectReply } from "./output-spec";
import type { TurnLog } from "./turn-log";
import type { TurnRun } from "./turn-run";

/**
 * A step's model answer: its last call, the usage and duration of all its calls, and the object
 * when the run asks for one and got it.
 */
export interface StepAnswer {
  response: LanguageModelResult;
  usage: LanguageModelResult["usage"];
  /** Milliseconds the step's model calls took, summed (a streamed call: until its last part). */
  durationMs: number;
  object?: { value: unknown; json: string };
}

/**
 * Calls the model for a step. In a run with `output`, an answer without tool calls must be the
 * object: one that fails the schema is asked for again, up to `output.retries` times, the failed
 * reply and its issue added to that call only (never to the log, so no failed attempt is stored),
 * then a `NoObjectGeneratedError`. An answer with tool calls (a retry may go back to tools) is a
 * tool step as usual. Every call's usage counts in the log.
 */
export async function* callForObject(
  config: AgentConfig,
  run: TurnRun,
  call: LanguageModelCall,
  log: TurnLog,
  /** The tool call ids the model can see (a streamed call's id is made unique against them). */
  takenToolCallIds: ReadonlySet<string> = new Set(),
): AsyncGenerator<AgentStreamPart, StepAnswer> {
  let startedAt = Date.now();
  let response = yield* callModel(config, run, call, takenToolCallIds);
  let durationMs = Date.now() - startedAt;
  log.addCall(response.usage, response.finishReason);
  let usage = response.usage;
  const output = run.output;
  if (!output) return { response, usage, durationMs };
  for (let attempt = 1; response.toolCalls.length === 0; attempt++) {
    const parsed = parseObjectReply(response.text, output.schema);
    if (parsed.success) return { response, usage, durationMs, object: { value: parsed.object, json: parsed.json } };
    if (attempt > output.retries) {
      throw new NoObjectGeneratedError({
        reason: "invalid",
        text: response.text,
        attempts: attempt,
        usage: log.totalUsage,
        sessionId: run.sessionId,
        message: `No object generated: after ${attempt} attempt(s) ${parsed.issue}.`,
        cause: parsed.cause,
      });
    }
    if (run.mode === "stream") {
      const part: AgentStreamPart = { type: "object-retry", attempt, issue: parsed.issue };
      if (run.textSink) run.textSink(part);
      else yield part;
    }
    startedAt = Date.now();
    response = yield* callModel(
      config,
      run,
      { ...call, messages: [...call.messages, ...retryMessages(response.text, parsed.issue)] },
      takenToolCallIds,
    );
    durationMs += Date.now() - startedAt;
    log.addCall(response.usage, response.finishReason);
    usage = addUsage(usage, response.usage);
  }
  return { response, usage, durationMs };
}

/** What the retry call adds after the window: the failed reply, then the issue. */
function retryMessages(text: string, issue: string): AgentMessage[] {
  return [
    { role: "assistant", content: text.trim() === "" ? "(no reply)" : text },
    {
      role: "user",
      content: `Your reply could not be used: ${issue}. Reply again with only the JSON object, matching the schema.`,
    },
  ];
}
