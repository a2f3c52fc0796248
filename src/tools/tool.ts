import type { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";
import type { LanguageModel, LanguageModelUsage } from "../models/language-model";
import { isJsonSchema, type JsonSchema } from "./json-schema";

/**
 * What a tool's `execute` (and a `needsApproval` function) receives besides its validated arguments.
 * `Context`: the type of the app's context the run was given (`agent.run({ context })`).
 */
export type ToolExecutionContext<Context = unknown> = ToolCallContext & { context: Context };

/**
 * What a `Tool`'s `execute` takes: `context` optional, so a test may call `execute` without one (the
 * agent always passes the run's).
 */
export type ToolCallOptions<Context = unknown> = ToolCallContext & { context?: Context };

/** What every tool call gets (`ToolExecutionContext` without the app's context). */
export interface ToolCallContext {
  /** Id of the tool call being answered. */
  toolCallId: string;
  /** Session of the run that called the tool. */
  sessionId: string;
  /** The run that called the tool (as in event payloads). */
  runId?: string;
  /** User of the run, when the run named one. */
  userId?: string;
  /** Aborts with the run. Pass it on to fetches and other slow work. */
  abortSignal?: AbortSignal;
  /** The window the model saw when it made this call. */
  messages: readonly AgentMessage[];
  /** The model of the agent running the tool (an MCP server's sampling requests use it by default). */
  model?: LanguageModel;
  /**
   * Counts tokens the tool spent on a model (an MCP server's sampling requests, a sub-agent) in the
   * run's `usage`, one model call per report (in the session's usage ledger too, priced by `model`'s
   * id when given, else the agent's model's; docs/threads.md). Absent when the tool is called outside a run.
   */
  reportUsage?: (usage: LanguageModelUsage, model?: { provider?: string; modelId: string }) => void;
  /**
   * The app's context of the run (`agent.run({ context })`, `streamText({ context })`), as given: a
   * database handle, the signed-in user. Never stored, sent to a model, traced or reported.
   * `undefined` when the run was given none.
   */
  context?: unknown;
}

/** A tool's input schema: a zod schema, or a JSON Schema wrapped by `jsonSchema()`. */
export type ToolParameters = z.ZodType | JsonSchema<any>;

/** The arguments `execute` receives for a tool's input schema. */
export type ToolInput<Parameters extends ToolParameters> =
  Parameters extends JsonSchema<infer Input> ? Input : z.output<Parameters>;

/** A tool the model can call. Make one with `tool()`. */
export interface Tool<Parameters extends ToolParameters = ToolParameters, Result = unknown, Context = unknown> {
  description?: string;
  /** Schema of the input (zod, or `jsonSchema()`). Validated before `execute` runs. */
  parameters: Parameters;
  execute: (args: ToolInput<Parameters>, context: ToolCallOptions<Context>) => Result | Promise<Result>;
  /** Whether a call waits for the user's approval before it runs (docs/approvals.md). */
  needsApproval?:
    | boolean
    | ((args: ToolInput<Parameters>, context: ToolCallOptions<Context>) => boolean | Promise<boolean>);
}

/**
 * `true`: every call of the tool waits for the user's approval; a function: decides per call from
 * its validated input (a call whose input is invalid never runs, so it is never asked about).
 */
export type ToolNeedsApproval<Parameters extends ToolParameters = ToolParameters, Context = unknown> =
  | boolean
  | ((args: ToolInput<Parameters>, context: ToolExecutionContext<Context>) => boolean | Promise<boolean>);

/**
 * `Context`: the type of the app's context the tool reads (`execute(input, { context })`); an agent
 * whose tools read one is typed by it (`new Agent<Context>()`), and its runs must give one.
 */
export interface ToolOptions<Parameters extends ToolParameters, Result, Context = unknown> {
  /** What the tool does, for the model. */
  description?: string;
  /**
   * Schema of the input object: a zod schema, or `jsonSchema({...})` for a JSON Schema (see
   * `jsonSchema` for what is validated then).
   */
  parameters?: Parameters;
  /** Alias of `parameters` (the AI SDK v5 name). */
  inputSchema?: Parameters;
  /**
   * Runs the tool. Its return value is sent back to the model (strings as they are, anything
   * else as JSON). A thrown error goes back to the model as a tool result saying what failed.
   */
  execute: (args: ToolInput<Parameters>, context: ToolExecutionContext<Context>) => Result | Promise<Result>;
  /**
   * Human in the loop: a call waits for the user's approval before `execute` runs. The run then
   * ends with `finishReason: "tool-approval"` and the request in `result.toolApprovals`; the next
   * run with `approvals` (or a `useChat` approval response) runs it or gives the model the
   * user's reason for denying it (docs/approvals.md). `true` for every call, or a function of the
   * call's validated input. @default false
   */
  needsApproval?: ToolNeedsApproval<Parameters, Context>;
}

/** Defines a tool with a zod input schema, or a JSON Schema wrapped by `jsonSchema()`. */
export function tool<Parameters extends ToolParameters, Result, Context = unknown>(
  options: ToolOptions<Parameters, Result, Context>,
): Tool<Parameters, Result, Context> {
  const parameters = options.parameters ?? options.inputSchema;
  if (
    !parameters ||
    (!isJsonSchema(parameters) && typeof (parameters as { safeParse?: unknown }).safeParse !== "function")
  ) {
    throw new InvalidArgumentError({
      argument: "parameters",
      message:
        'tool() needs a zod schema as `parameters` (or `inputSchema`), e.g. z.object({ city: z.string() }), or a JSON Schema wrapped by jsonSchema({ type: "object", ... }).',
    });
  }
  if (typeof options.execute !== "function") {
    throw new InvalidArgumentError({ argument: "execute", message: "tool() needs an `execute` function." });
  }
  const needsApproval = options.needsApproval;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && typeof needsApproval !== "function") {
    throw new InvalidArgumentError({
      argument: "needsApproval",
      value: needsApproval,
      message:
        "tool() takes needsApproval as true, false or a function (input, context) => boolean | Promise<boolean>.",
    });
  }
  // The agent always passes the run's context (`undefined` when it has none): what `execute` declares.
  return {
    ...(options.description === undefined ? {} : { description: options.description }),
    parameters,
    execute: options.execute as Tool<Parameters, Result, Context>["execute"],
    ...(needsApproval === undefined || needsApproval === false
      ? {}
      : { needsApproval: needsApproval as Tool<Parameters, Result, Context>["needsApproval"] }),
  };
}

/**
 * A set of tools keyed by the name the model calls them by. `Context`: the app's context their runs
 * give them (a tool that reads none fits any set).
 */
export type ToolSet<Context = unknown> = Record<string, Tool<ToolParameters, unknown, Context>>;
