import { PrepareStepError } from "../errors/prepare-step-error";
import type { AgentMessage } from "../messages/agent-message";
import { findToolPairingIssues } from "../messages/validate-tool-pairing";
import type { ToolChoice } from "../models/language-model";
import { resolveLanguageModel } from "../models/registry/model-registry";
import type { ContextPrepareStep } from "../stores/context-report";
import type { ToolSet } from "../tools/tool";
import type { AgentConfig } from "./agent-config";
import type { StepResult } from "./agent-result";
import type { TurnRun } from "./turn-run";

/** A step as `prepareStep` left it: the config of its call (model, tools, instructions), its messages, and what changed. */
export interface PreparedStep {
  config: AgentConfig;
  messages: AgentMessage[];
  toolChoice: ToolChoice | undefined;
  /** For the context report: absent when nothing changed. */
  changes: (ContextPrepareStep & { dropped: readonly AgentMessage[] }) | undefined;
}

const FIELDS = new Set(["model", "tools", "toolChoice", "system", "messages"]);

/**
 * Calls the agent's `prepareStep` (set) with the step's window and checks what it returns: every
 * field of it, the messages a subsequence of the window that keeps the pairing rule, the tools the
 * agent's. A bad result is a `PrepareStepError`; nothing is called.
 */
export async function prepareStep(
  config: AgentConfig,
  run: TurnRun,
  stepNumber: number,
  steps: readonly StepResult[],
  window: AgentMessage[],
): Promise<PreparedStep> {
  const result = await config.prepareStep!({
    stepNumber,
    steps,
    messages: window,
    model: config.model,
    context: run.context,
  });
  if (result === undefined || result === null)
    return { config, messages: window, toolChoice: undefined, changes: undefined };
  const refuse = (field: string, message: string) =>
    new PrepareStepError({ problem: "invalid-result", stepNumber, field, message });
  if (typeof result !== "object" || Array.isArray(result))
    throw refuse("result", "return an object { model?, tools?, toolChoice?, system?, messages? } or undefined.");
  for (const key of Object.keys(result)) {
    if (!FIELDS.has(key))
      throw refuse(key, `unknown field "${key}"; the fields are model, tools, toolChoice, system and messages.`);
  }
  const changed: ContextPrepareStep["changed"] = [];
  let stepConfig = config;
  if (result.model !== undefined) {
    const model = resolveLanguageModel(result.model);
    if (model !== config.model) {
      stepConfig = { ...stepConfig, model };
      changed.push("model");
    }
  }
  if (result.tools !== undefined) {
    stepConfig = { ...stepConfig, ...activeTools(config, result.tools, stepNumber) };
    changed.push("tools");
  }
  const toolChoice = result.toolChoice === undefined ? undefined : checkToolChoice(result.toolChoice, stepNumber);
  if (toolChoice !== undefined) changed.push("toolChoice");
  if (result.system !== undefined) {
    if (typeof result.system !== "string") throw refuse("system", "system must be a string.");
    stepConfig = { ...stepConfig, systemPrompt: result.system || undefined };
    changed.push("system");
  }
  let messages = window;
  let dropped: AgentMessage[] = [];
  if (result.messages !== undefined) {
    messages = checkMessages(result.messages, window, stepNumber);
    dropped = window.filter((message) => !messages.includes(message));
    if (dropped.length > 0) changed.push("messages");
  }
  return {
    config: stepConfig,
    messages,
    toolChoice,
    changes: changed.length === 0 ? undefined : { changed, droppedCount: dropped.length, dropped },
  };
}

/** The agent's tools narrowed to `names` (each one of them), with their definitions. */
function activeTools(
  { tools, toolDefinitions }: AgentConfig,
  names: readonly string[],
  stepNumber: number,
): Pick<AgentConfig, "tools" | "toolDefinitions"> {
  if (!Array.isArray(names))
    throw new PrepareStepError({
      problem: "invalid-result",
      stepNumber,
      field: "tools",
      message: "tools must be a list of tool names.",
    });
  const active: ToolSet = {};
  for (const name of names) {
    if (typeof name !== "string" || !Object.hasOwn(tools, name)) {
      throw new PrepareStepError({
        problem: "unknown-tool",
        stepNumber,
        field: "tools",
        toolName: String(name),
        message: `tools names "${String(name)}", which is not one of the agent's tools (${Object.keys(tools).join(", ") || "none"}).`,
      });
    }
    active[name] = tools[name]!;
  }
  return {
    tools: active,
    toolDefinitions: toolDefinitions.filter((definition) => Object.hasOwn(active, definition.name)),
  };
}

function checkToolChoice(choice: unknown, stepNumber: number): ToolChoice {
  if (choice === "auto" || choice === "none" || choice === "required") return choice;
  const named = choice as { type?: unknown; toolName?: unknown } | null;
  if (typeof named === "object" && named !== null && named.type === "tool" && typeof named.toolName === "string")
    return { type: "tool", toolName: named.toolName };
  throw new PrepareStepError({
    problem: "invalid-result",
    stepNumber,
    field: "toolChoice",
    message: 'toolChoice must be "auto", "none", "required" or { type: "tool", toolName }.',
  });
}

/**
 * The returned messages checked: each one of the window's (the same object), in the window's order
 * (so nothing is added: no stored message the strategy left out, no message of the app's own), and
 * the pairing rule kept (else the error names the call).
 */
function checkMessages(returned: unknown, window: AgentMessage[], stepNumber: number): AgentMessage[] {
  if (!Array.isArray(returned) || returned.length === 0)
    throw new PrepareStepError({
      problem: "invalid-result",
      stepNumber,
      field: "messages",
      message: "messages must be a non-empty list of the messages it was given (a model call needs one).",
    });
  if (returned.length === window.length && returned.every((message, index) => message === window[index])) return window;
  let from = 0;
  returned.forEach((message, index) => {
    const at = window.indexOf(message, from);
    if (at === -1) {
      throw new PrepareStepError({
        problem: "unknown-message",
        stepNumber,
        field: "messages",
        messageIndex: index,
        message: `messages[${index}] is not one of the messages it was given (or not in their order): prepareStep may only filter or shorten the window, never add to it or change a message.`,
      });
    }
    from = at + 1;
  });
  const [issue] = findToolPairingIssues(returned as AgentMessage[]);
  if (issue) {
    const message = returned[issue.index] as AgentMessage;
    const toolCallId =
      message.role === "tool"
        ? message.toolCallId
        : message.role === "assistant"
          ? message.toolCalls?.[Number(issue.path.split(".")[1])]?.id
          : undefined;
    throw new PrepareStepError({
      problem: "broken-pairing",
      stepNumber,
      field: "messages",
      messageIndex: issue.index,
      ...(toolCallId === undefined ? {} : { toolCallId }),
      message: `messages breaks the tool-call pairing rule: ${issue.message}. Keep or drop a tool call and its result together.`,
    });
  }
  return returned as AgentMessage[];
}
