// The tool set of an MCP server's listing: names mapped and checked, tools that cannot work left out or refused.
import type { Tool as MCPTool } from "@modelcontextprotocol/sdk/types.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import type { Tool, ToolSet } from "../tool";
import { isValidToolName } from "../tool-definitions";

export interface MCPToolsOptions {
  /** Put before every tool name, to keep tools of several servers apart (`"github_"`). @default "" */
  prefix?: string;
  /**
   * The name the model sees for a server's tool name (before `prefix`). Use it for names providers
   * refuse (they take 1-64 letters, digits, "_" or "-"), e.g. `(name) => name.replaceAll(".", "_")`.
   * @default the server's name
   */
  rename?: (name: string) => string;
}

/** Throws an `MCPClientError` (`reason: "invalid-tools"`) for names providers refuse or that collide, and for unusable schemas. */
export function toToolSet(
  listed: MCPTool[],
  options: MCPToolsOptions,
  how: {
    server: string;
    /** Whether the server runs tools as tasks: a tool that runs only as a task is left out otherwise. */
    offersTasks: boolean;
    toTool: (listedTool: MCPTool, asTask: boolean) => Tool;
    warn: (message: string) => void;
  },
): ToolSet {
  const tools: ToolSet = {};
  const invalid: string[] = [];
  const collisions: string[] = [];
  const unusable: string[] = [];
  const taskless: string[] = [];
  for (const listedTool of listed) {
    const asTask = listedTool.execution?.taskSupport === "required";
    if (asTask && !how.offersTasks) {
      taskless.push(`"${listedTool.name}"`);
      continue;
    }
    const name = `${options.prefix ?? ""}${options.rename ? options.rename(listedTool.name) : listedTool.name}`;
    if (!isValidToolName(name))
      invalid.push(name === listedTool.name ? `"${name}"` : `"${name}" (from "${listedTool.name}")`);
    else if (Object.hasOwn(tools, name)) collisions.push(`"${name}"`);
    else {
      try {
        tools[name] = how.toTool(listedTool, asTask);
      } catch (error) {
        if (!InvalidArgumentError.isInstance(error)) throw error;
        unusable.push(`"${listedTool.name}" (${error.message})`);
      }
    }
  }
  if (invalid.length || collisions.length) {
    const problems = [
      ...(invalid.length
        ? [`tool names providers refuse (they take 1-64 letters, digits, "_" or "-"): ${invalid.join(", ")}`]
        : []),
      ...(collisions.length ? [`tool names given twice: ${collisions.join(", ")}`] : []),
    ];
    throw new MCPClientError({
      server: how.server,
      reason: "invalid-tools",
      message: `MCP server "${how.server}" lists ${problems.join("; ")}. Map them with tools({ rename: (name) => ... }) or tools({ prefix }).`,
    });
  }
  if (unusable.length) {
    throw new MCPClientError({
      server: how.server,
      reason: "invalid-tools",
      message: `MCP server "${how.server}" lists tools whose input schema cannot be used: ${unusable.join("; ")}. A model's arguments could never be checked against it; fix the schema on the server.`,
    });
  }
  if (taskless.length)
    how.warn(
      `MCP server "${how.server}" lists tools that run only as tasks but does not offer tasks: ${taskless.join(", ")}. They are left out of tools().`,
    );
  return tools;
}
