import { z } from "zod";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentMessage } from "../messages/agent-message";

/** What a tool's `execute` receives besides its validated arguments. */
export interface ToolExecutionContext {
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
}

/** A tool the model can call. Make one with `tool()`. */
export interface Tool<Parameters extends z.ZodType = z.ZodType, Result = unknown> {
  description?: string;
  /** Zod schema of the input. Validated before `execute` runs. */
  parameters: Parameters;
  execute: (args: z.output<Parameters>, context: ToolExecutionContext) => Result | Promise<Result>;
}

export interface ToolOptions<Parameters extends z.ZodType, Result> {
  /** What the tool does, for the model. */
  description?: string;
  /** Zod schema of the input object. */
  parameters?: Parameters;
  /** Alias of `parameters` (the AI SDK v5 name). */
  inputSchema?: Parameters;
  /**
   * Runs the tool. Its return value is sent back to the model (strings as they are, anything
   * else as JSON). A thrown error goes back to the model as a tool result saying what failed.
   */
  execute: (args: z.output<Parameters>, context: ToolExecutionContext) => Result | Promise<Result>;
}

/** Defines a tool with a zod input schema. */
export function tool<Parameters extends z.ZodType, Result>(options: ToolOptions<Parameters, Result>): Tool<Parameters, Result> {
  const parameters = options.parameters ?? options.inputSchema;
  if (!parameters || typeof (parameters as { safeParse?: unknown }).safeParse !== "function") {
    throw new InvalidArgumentError({
      argument: "parameters",
      message: "tool() needs a zod schema as `parameters` (or `inputSchema`), e.g. z.object({ city: z.string() }).",
    });
  }
  if (typeof options.execute !== "function") {
    throw new InvalidArgumentError({ argument: "execute", message: "tool() needs an `execute` function." });
  }
  return {
    ...(options.description === undefined ? {} : { description: options.description }),
    parameters,
    execute: options.execute,
  };
}

/** A set of tools keyed by the name the model calls them by. */
export type ToolSet = Record<string, Tool>;
