import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ErrorCode, McpError, type Tool as MCPTool } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../errors/error-text";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import { jsonSchema } from "../json-schema";
import { tool, type ToolSet } from "../tool";
import { isValidToolName } from "../tool-definitions";
import { mcpToolResultText, mcpToolResultValue } from "./mcp-tool-result";

/** Pages of `tools/list` read before the listing is taken as a loop. */
const maxListPages = 1_000;

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
  /** The server's name in errors and tool results. */
  readonly name: string;
  private readonly timeoutMs: number;
  /** Connects again after a lost connection; undefined when that is off or impossible. */
  private readonly reopen: ((signal: AbortSignal) => Promise<Client>) | undefined;
  /** Aborted by `close()`: cancels a handshake in progress (a stdio server being started is ended). */
  private readonly closed = new AbortController();
  private readonly cannotReopen: string;
  private current: Client;
  private closing: Promise<void> | undefined;
  private connectionLost = false;
  private reconnecting: Promise<Client> | undefined;
  private readonly inFlight = new Map<Client, number>();

  /** @internal Use `createMCPClient()`, which connects first. */
  constructor(
    client: Client,
    options: {
      name: string;
      timeoutMs: number;
      reopen?: (signal: AbortSignal) => Promise<Client>;
      cannotReopen?: string;
    },
  ) {
    this.current = client;
    this.name = options.name;
    this.timeoutMs = options.timeoutMs;
    this.reopen = options.reopen;
    this.cannotReopen = options.cannotReopen ?? "";
    this.watch(client);
  }

  /** The MCP SDK client of the current connection, for what agentcore does not wrap (resources, prompts). */
  get client(): Client {
    return this.current;
  }

  /**
   * The server's tools, for `new Agent({ tools: { ...(await mcp.tools()), ...myTools } })`. Reads
   * every page of the server's list each time. Each tool's input is the server's JSON Schema
   * (checked as `jsonSchema()` does before the call); its result is the server's content as text
   * or structured JSON (`isError` results, timeouts and lost connections reach the model as tool
   * errors). Throws an `MCPClientError` (`reason: "invalid-tools"`) for names providers refuse or
   * that collide, naming them: fix with `rename` or `prefix`; and for input schemas that cannot
   * check anything (a `$ref` loop that describes no deeper part of the input, see `jsonSchema()`).
   */
  async tools(options: MCPToolsOptions = {}): Promise<ToolSet> {
    const listed = await this.listTools();
    const tools: ToolSet = {};
    const invalid: string[] = [];
    const collisions: string[] = [];
    const unusable: string[] = [];
    for (const listedTool of listed) {
      const name = `${options.prefix ?? ""}${options.rename ? options.rename(listedTool.name) : listedTool.name}`;
      if (!isValidToolName(name))
        invalid.push(name === listedTool.name ? `"${name}"` : `"${name}" (from "${listedTool.name}")`);
      else if (Object.hasOwn(tools, name)) collisions.push(`"${name}"`);
      else {
        try {
          tools[name] = this.toTool(listedTool);
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
        server: this.name,
        reason: "invalid-tools",
        message: `MCP server "${this.name}" lists ${problems.join("; ")}. Map them with tools({ rename: (name) => ... }) or tools({ prefix }).`,
      });
    }
    if (unusable.length) {
      throw new MCPClientError({
        server: this.name,
        reason: "invalid-tools",
        message: `MCP server "${this.name}" lists tools whose input schema cannot be used: ${unusable.join("; ")}. A model's arguments could never be checked against it; fix the schema on the server.`,
      });
    }
    return tools;
  }

  /** Every tool the server lists, all pages read. */
  async listTools(): Promise<MCPTool[]> {
    const tools: MCPTool[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxListPages; page++) {
      let result: Awaited<ReturnType<Client["listTools"]>>;
      try {
        const params = cursor === undefined ? {} : { cursor };
        result = await this.request(undefined, (client) => client.listTools(params, { timeout: this.timeoutMs }));
      } catch (error) {
        throw MCPClientError.isInstance(error) ? error : this.failure(error);
      }
      tools.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) return tools;
      if (cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    throw new MCPClientError({
      server: this.name,
      reason: "server-error",
      message: `MCP server "${this.name}" kept returning pages of tools (cursor "${cursor}" came back); the listing was stopped.`,
    });
  }

  /**
   * Closes the connection (a stdio server's process is ended: stdin closed, then SIGTERM, then
   * SIGKILL). Calls still waiting end as tool errors. Safe to call more than once.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed.abort();
      // A reconnect in flight closes the client it makes itself (it sees `closing`).
      await this.current.close().catch(() => undefined);
      await this.reconnecting?.catch(() => undefined);
    })();
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

  private async callTool(
    name: string,
    args: Record<string, unknown>,
    runSignal: AbortSignal | undefined,
  ): Promise<unknown> {
    // One signal per call: the SDK never removes the listener it adds, and a run's signal lives long.
    const controller = new AbortController();
    const abort = () => controller.abort(runSignal?.reason);
    if (runSignal?.aborted) abort();
    runSignal?.addEventListener("abort", abort, { once: true });
    try {
      const result = await this.request(
        name,
        (client) =>
          client.callTool({ name, arguments: args }, undefined, { signal: controller.signal, timeout: this.timeoutMs }),
        controller.signal,
      );
      if (result.isError)
        throw new MCPClientError({
          server: this.name,
          reason: "tool-error",
          toolName: name,
          message: mcpToolResultText(result) || `MCP server "${this.name}" reported an error without a message.`,
        });
      return mcpToolResultValue(result);
    } catch (error) {
      if (runSignal?.aborted || MCPClientError.isInstance(error)) throw error;
      throw this.failure(error, name);
    } finally {
      runSignal?.removeEventListener("abort", abort);
    }
  }

  /**
   * Sends one request on a live connection (connecting again first when the last one was lost).
   * A failure of the transport itself (the server unreachable, an HTTP error) marks the connection
   * lost, so the next request connects again; a request refused because the server no longer knows
   * the session never ran, and is sent once more on a new session.
   */
  private async request<T>(
    toolName: string | undefined,
    send: (client: Client) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const client = await this.ready(toolName, signal);
    try {
      return await this.track(client, send);
    } catch (error) {
      // JSON-RPC answers and timeouts are McpErrors; an abort is the caller's, not the connection's.
      if (error instanceof McpError || this.closing || signal?.aborted) throw error;
      if (client === this.current) this.connectionLost = true;
      if (!this.reopen || !isExpiredSession(error)) throw error;
      return this.track(await this.ready(toolName, signal), send);
    }
  }

  /** Sends on a client, counting its requests in flight: a replaced client is closed once none is left, so its other requests end on their own terms. */
  private async track<T>(client: Client, send: (client: Client) => Promise<T>): Promise<T> {
    this.inFlight.set(client, (this.inFlight.get(client) ?? 0) + 1);
    try {
      return await send(client);
    } finally {
      const left = this.inFlight.get(client)! - 1;
      if (left > 0) this.inFlight.set(client, left);
      else {
        this.inFlight.delete(client);
        if (client !== this.current) void client.close().catch(() => undefined);
      }
    }
  }

  /** The current client, connected again first if the connection was lost. */
  private ready(toolName: string | undefined, signal?: AbortSignal): Promise<Client> | Client {
    const refuse = (why: string) =>
      new MCPClientError({
        server: this.name,
        reason: "not-connected",
        ...(toolName ? { toolName } : {}),
        message: `MCP server "${this.name}" is not connected: ${why}.`,
      });
    if (this.closing) throw refuse("its client was closed");
    if (!this.connectionLost) return this.current;
    if (!this.reopen)
      throw refuse(`the connection was lost earlier (the server exited or dropped it)${this.cannotReopen}`);
    this.reconnecting ??= this.reconnect(toolName).finally(() => {
      this.reconnecting = undefined;
    });
    return signal ? untilAborted(this.reconnecting, signal) : this.reconnecting;
  }

  private async reconnect(toolName: string | undefined): Promise<Client> {
    const lost = this.current;
    let client: Client;
    try {
      client = await this.reopen!(this.closed.signal);
    } catch (error) {
      if (this.closing)
        throw new MCPClientError({
          server: this.name,
          reason: "not-connected",
          ...(toolName ? { toolName } : {}),
          message: `MCP server "${this.name}" is not connected: its client was closed.`,
        });
      const detail = MCPClientError.isInstance(error)
        ? error.message.replace(/^Could not connect to MCP server "[^"]*": /, "")
        : errorText(error);
      throw new MCPClientError({
        server: this.name,
        reason: "connect-failed",
        cause: error,
        ...(toolName ? { toolName } : {}),
        message: `The connection to MCP server "${this.name}" was lost and connecting again failed: ${detail} The next request tries again.`,
      });
    }
    if (this.closing) {
      await client.close().catch(() => undefined);
      throw new MCPClientError({
        server: this.name,
        reason: "not-connected",
        ...(toolName ? { toolName } : {}),
        message: `MCP server "${this.name}" is not connected: its client was closed.`,
      });
    }
    this.current = client;
    this.connectionLost = false;
    this.watch(client);
    if (!this.inFlight.has(lost)) await lost.close().catch(() => undefined);
    return client;
  }

  private watch(client: Client): void {
    client.onclose = () => {
      if (client === this.current && !this.closing) this.connectionLost = true;
    };
  }

  /** An SDK failure as an MCPClientError whose message the model can act on. */
  private failure(error: unknown, toolName?: string): MCPClientError {
    const base = { server: this.name, cause: error, ...(toolName ? { toolName } : {}) };
    const code = error instanceof McpError ? error.code : undefined;
    if (code === ErrorCode.RequestTimeout) {
      return new MCPClientError({
        ...base,
        reason: "timeout",
        message: `MCP server "${this.name}" did not answer within ${this.timeoutMs} ms; the request was cancelled.`,
      });
    }
    if (code === ErrorCode.ConnectionClosed || this.closing || (code !== undefined && this.connectionLost)) {
      const why = this.closing ? "its client was closed" : "the server exited or dropped the connection";
      return new MCPClientError({
        ...base,
        reason: "connection-closed",
        message: `The connection to MCP server "${this.name}" closed before it answered: ${why}.`,
      });
    }
    if (code === undefined) {
      // Not a JSON-RPC answer: the transport could not send (an HTTP server that is gone).
      const cause = (error as { cause?: unknown } | undefined)?.cause;
      const detail = cause === undefined ? errorText(error) : `${errorText(error)} (${errorText(cause)})`;
      return new MCPClientError({
        ...base,
        reason: "connection-closed",
        message: `Could not reach MCP server "${this.name}": ${detail}.`,
      });
    }
    return new MCPClientError({
      ...base,
      reason: "server-error",
      message: `MCP server "${this.name}" failed: ${errorText(error)}`,
    });
  }
}

/** The promise, or the signal's reason as soon as it is aborted (a run aborted during a reconnect does not wait for the handshake). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/**
 * Whether an HTTP server refused the request because it no longer knows the session (it
 * restarted): 404 as the MCP spec says, or 400 as servers built on the SDK's examples answer.
 * The POST was refused before any JSON-RPC handling, so the request never ran.
 */
function isExpiredSession(error: unknown): boolean {
  const status = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    (status === 404 || status === 400) &&
    error.message.startsWith("Streamable HTTP error: Error POSTing")
  );
}
