import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool as MCPTool } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../errors/error-text";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import { jsonSchema } from "../json-schema";
import { tool, type ToolSet } from "../tool";
import { isValidToolName } from "../tool-definitions";
import { mcpToolResultText, mcpToolResultValue } from "./mcp-tool-result";
import { createTransport, type MCPTransportOptions } from "./mcp-transport";

const defaultTimeoutMs = 30_000;
const defaultConnectTimeoutMs = 60_000;
/** Pages of `tools/list` read before the listing is taken as a loop. */
const maxListPages = 1_000;

export interface MCPClientOptions {
  /** How to reach the server: `{ type: "stdio", command, args? }`, `{ type: "http", url, headers? }`, or an MCP SDK transport. */
  transport: MCPTransportOptions;
  /** The server's name in errors and in the tool results the model sees. @default the name the server gives, else its command or URL */
  name?: string;
  /**
   * Milliseconds a request may wait for the server: a tool call that takes longer is cancelled
   * and the model gets a tool result saying the server did not answer. Also bounds listing
   * tools. @default 30000
   */
  timeoutMs?: number;
  /** Milliseconds to start or reach the server and complete the MCP handshake (`npx` may download first). @default 60000 */
  connectTimeoutMs?: number;
  /** The client's name and version sent to the server. @default { name: "agentcore", version: "0.1.0" } */
  clientInfo?: { name: string; version: string };
}

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

/** A connected MCP server whose tools an agent can call. Make one with `createMCPClient()`. */
export class MCPClient {
  /** The MCP SDK client, for what agentcore does not wrap (resources, prompts). */
  readonly client: Client;
  /** The server's name in errors and tool results. */
  readonly name: string;
  private readonly timeoutMs: number;
  private closing: Promise<void> | undefined;
  private connectionLost = false;

  /** @internal Use `createMCPClient()`, which connects first. */
  constructor(client: Client, options: { name: string; timeoutMs: number }) {
    this.client = client;
    this.name = options.name;
    this.timeoutMs = options.timeoutMs;
    client.onclose = () => {
      if (!this.closing) this.connectionLost = true;
    };
  }

  /**
   * The server's tools, for `new Agent({ tools: { ...(await mcp.tools()), ...myTools } })`. Reads
   * every page of the server's list each time. Each tool's input is the server's JSON Schema
   * (checked as `jsonSchema()` does before the call); its result is the server's content as text
   * or structured JSON (`isError` results, timeouts and lost connections reach the model as tool
   * errors). Throws an `MCPClientError` (`reason: "invalid-tools"`) for names providers refuse or
   * that collide, naming them: fix with `rename` or `prefix`.
   */
  async tools(options: MCPToolsOptions = {}): Promise<ToolSet> {
    const listed = await this.listTools();
    const tools: ToolSet = {};
    const invalid: string[] = [];
    const collisions: string[] = [];
    for (const listedTool of listed) {
      const name = `${options.prefix ?? ""}${options.rename ? options.rename(listedTool.name) : listedTool.name}`;
      if (!isValidToolName(name)) invalid.push(name === listedTool.name ? `"${name}"` : `"${name}" (from "${listedTool.name}")`);
      else if (Object.hasOwn(tools, name)) collisions.push(`"${name}"`);
      else tools[name] = this.toTool(listedTool);
    }
    if (invalid.length || collisions.length) {
      const problems = [
        ...(invalid.length ? [`tool names providers refuse (they take 1-64 letters, digits, "_" or "-"): ${invalid.join(", ")}`] : []),
        ...(collisions.length ? [`tool names given twice: ${collisions.join(", ")}`] : []),
      ];
      throw new MCPClientError({
        server: this.name,
        reason: "invalid-tools",
        message: `MCP server "${this.name}" lists ${problems.join("; ")}. Map them with tools({ rename: (name) => ... }) or tools({ prefix }).`,
      });
    }
    return tools;
  }

  /** Every tool the server lists, all pages read. */
  async listTools(): Promise<MCPTool[]> {
    this.throwIfUnusable();
    const tools: MCPTool[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxListPages; page++) {
      let result: Awaited<ReturnType<Client["listTools"]>>;
      try {
        result = await this.client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.timeoutMs });
      } catch (error) {
        throw this.failure(error);
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
      if (cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    throw new MCPClientError({ server: this.name, reason: "server-error", message: `MCP server "${this.name}" kept returning pages of tools (cursor "${cursor}" came back); the listing was stopped.` });
  }

  /**
   * Closes the connection (a stdio server's process is ended: stdin closed, then SIGTERM, then
   * SIGKILL). Calls still waiting end as tool errors. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= this.client.close().catch(() => undefined);
    return this.closing;
  }

  private toTool(listedTool: MCPTool) {
    const description = listedTool.description ?? listedTool.title ?? listedTool.annotations?.title;
    return tool({
      ...(description === undefined ? {} : { description }),
      parameters: jsonSchema(listedTool.inputSchema as Record<string, unknown>),
      execute: (args, context) => this.callTool(listedTool.name, args, context.abortSignal),
    });
  }

  private async callTool(name: string, args: Record<string, unknown>, runSignal: AbortSignal | undefined): Promise<unknown> {
    this.throwIfUnusable(name);
    // One signal per call: the SDK never removes the listener it adds, and a run's signal lives long.
    const controller = new AbortController();
    const abort = () => controller.abort(runSignal?.reason);
    if (runSignal?.aborted) abort();
    runSignal?.addEventListener("abort", abort, { once: true });
    try {
      const result = await this.client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: this.timeoutMs });
      if (result.isError) throw new MCPClientError({ server: this.name, reason: "tool-error", toolName: name, message: mcpToolResultText(result) || `MCP server "${this.name}" reported an error without a message.` });
      return mcpToolResultValue(result);
    } catch (error) {
      if (runSignal?.aborted || MCPClientError.isInstance(error)) throw error;
      throw this.failure(error, name);
    } finally {
      runSignal?.removeEventListener("abort", abort);
    }
  }

  private throwIfUnusable(toolName?: string): void {
    if (!this.closing && !this.connectionLost) return;
    const why = this.closing ? "its client was closed" : "the connection was lost earlier (the server exited or dropped it)";
    throw new MCPClientError({ server: this.name, reason: "not-connected", ...(toolName ? { toolName } : {}), message: `MCP server "${this.name}" is not connected: ${why}.` });
  }

  /** An SDK failure as an MCPClientError whose message the model can act on. */
  private failure(error: unknown, toolName?: string): MCPClientError {
    const base = { server: this.name, cause: error, ...(toolName ? { toolName } : {}) };
    const code = error instanceof McpError ? error.code : undefined;
    if (code === ErrorCode.RequestTimeout) {
      return new MCPClientError({ ...base, reason: "timeout", message: `MCP server "${this.name}" did not answer within ${this.timeoutMs} ms; the request was cancelled.` });
    }
    if (code === ErrorCode.ConnectionClosed || this.connectionLost || this.closing) {
      const why = this.closing ? "its client was closed" : "the server exited or dropped the connection";
      return new MCPClientError({ ...base, reason: "connection-closed", message: `The connection to MCP server "${this.name}" closed before it answered: ${why}.` });
    }
    if (code === undefined) {
      // Not a JSON-RPC answer: the transport could not send (an HTTP server that is gone).
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      const detail = cause === undefined ? errorText(error) : `${errorText(error)} (${errorText(cause)})`;
      return new MCPClientError({ ...base, reason: "connection-closed", message: `Could not reach MCP server "${this.name}": ${detail}.` });
    }
    return new MCPClientError({ ...base, reason: "server-error", message: `MCP server "${this.name}" failed: ${errorText(error)}` });
  }
}

/**
 * Connects to an MCP server and completes the MCP handshake. Throws an `MCPClientError`
 * (`reason: "connect-failed"`) when the server cannot be started or reached, or does not answer
 * within `timeoutMs`. Call `close()` when done.
 */
export async function createMCPClient(options: MCPClientOptions): Promise<MCPClient> {
  const timeoutMs = milliseconds(options, "timeoutMs", defaultTimeoutMs);
  const connectTimeoutMs = milliseconds(options, "connectTimeoutMs", defaultConnectTimeoutMs);
  const { transport, description } = await createTransport(options?.transport);
  const client = new Client(options.clientInfo ?? { name: "agentcore", version: "0.1.0" }, { capabilities: {} });
  try {
    await client.connect(transport, { timeout: connectTimeoutMs });
  } catch (error) {
    await closeQuietly(client, transport);
    const name = options.name ?? description;
    const detail = error instanceof McpError && error.code === ErrorCode.RequestTimeout ? `no answer within ${connectTimeoutMs} ms` : errorText(error);
    throw new MCPClientError({ server: name, reason: "connect-failed", cause: error, message: `Could not connect to MCP server "${name}": ${detail}. Check that it starts on its own and speaks MCP.` });
  }
  return new MCPClient(client, { name: options.name ?? client.getServerVersion()?.name ?? description, timeoutMs });
}

function milliseconds(options: MCPClientOptions | undefined, name: "timeoutMs" | "connectTimeoutMs", fallback: number): number {
  const value = options?.[name] ?? fallback;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  throw new InvalidArgumentError({ argument: name, value, message: `${name} must be a positive number of milliseconds (default ${fallback}).` });
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  await client.close().catch(() => undefined);
  await transport.close().catch(() => undefined);
}
