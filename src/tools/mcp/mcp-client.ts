import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError, type Tool as MCPTool } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../errors/error-text";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import { jsonSchema } from "../json-schema";
import { type ToolExecutionContext, tool, type ToolSet } from "../tool";

import { NO_SDK_TIMEOUT, startDeadline } from "./mcp-deadline";
import {
  type MCPPrompt,
  type MCPPromptResult,
  type MCPResource,
  type MCPResourceContents,
  type MCPReadResourceOptions,
  assertResourceSize,
  resourceByteLimit,
  toMCPPrompt,
  toMCPPromptResult,
  toMCPResource,
  toMCPResourceContents,
} from "./mcp-documents";
import { isExpiredSession, mcpFailure } from "./mcp-failure";
import type { MCPRoot, MCPServerRequests } from "./mcp-server-requests";
import { callToolAsTask, TaskFailed } from "./mcp-task-call";
import { mcpToolResultText, mcpToolResultValue } from "./mcp-tool-result";
import { type MCPToolsOptions, toToolSet } from "./mcp-tool-set";

/** Pages of `tools/list` read before the listing is taken as a loop. */
const maxListPages = 1_000;

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
  private readonly requests: MCPServerRequests;
  private readonly warn: (message: string) => void;

  /** @internal Use `createMCPClient()`, which connects first. */
  constructor(
    client: Client,
    options: {
      name: string;
      timeoutMs: number;
      requests: MCPServerRequests;
      warn: (message: string) => void;
      reopen?: (signal: AbortSignal) => Promise<Client>;
      cannotReopen?: string;
    },
  ) {
    this.current = client;
    this.name = options.name;
    this.timeoutMs = options.timeoutMs;
    this.requests = options.requests;
    this.warn = options.warn;
    this.reopen = options.reopen;
    this.cannotReopen = options.cannotReopen ?? "";
    this.watch(client);
  }

  /** The MCP SDK client of the current connection, for what agentcore does not wrap (subscriptions, completions). */
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
   * A tool the server runs only as a task (`execution.taskSupport: "required"`) is called through
   * the SDK's task API; if the server does not offer tasks, it is left out with a warning.
   */
  async tools(options: MCPToolsOptions = {}): Promise<ToolSet> {
    const offersTasks = this.current.getServerCapabilities()?.tasks?.requests?.tools?.call !== undefined;
    return toToolSet(await this.listTools(), options, {
      server: this.name,
      offersTasks,
      toTool: (listedTool, asTask) => this.toTool(listedTool, asTask),
      warn: this.warn,
    });
  }

  /** Every tool the server lists, all pages read. */
  listTools(): Promise<MCPTool[]> {
    return this.listAll("tools", (client, params) =>
      client.listTools(params, { timeout: this.timeoutMs }).then((page) => ({ ...page, items: page.tools })),
    );
  }

  /** The documents the server offers (`resources/list`, all pages). */
  async resources(): Promise<MCPResource[]> {
    const listed = await this.listAll("resources", (client, params) =>
      client.listResources(params, { timeout: this.timeoutMs }).then((page) => ({ ...page, items: page.resources })),
    );
    return listed.map(toMCPResource);
  }

  /**
   * Reads one resource; its `text` is ready to put in a prompt (docs/mcp.md, "MCP capabilities"). One
   * larger than `maxBytes` (default 50 MiB) is an `MCPClientError` with `reason: "too-large"`.
   */
  async readResource(uri: string, options: MCPReadResourceOptions = {}): Promise<MCPResourceContents> {
    const maxBytes = resourceByteLimit(options);
    if (typeof uri !== "string" || uri === "")
      throw new InvalidArgumentError({
        argument: "uri",
        value: uri,
        message: "readResource(uri) needs the resource's URI.",
      });
    const result = await this.send((client) => client.readResource({ uri }, { timeout: this.timeoutMs }));
    assertResourceSize(this.name, uri, result, maxBytes);
    return toMCPResourceContents(uri, result);
  }

  /** The prompt templates the server offers (`prompts/list`, all pages). */
  async prompts(): Promise<MCPPrompt[]> {
    const listed = await this.listAll("prompts", (client, params) =>
      client.listPrompts(params, { timeout: this.timeoutMs }).then((page) => ({ ...page, items: page.prompts })),
    );
    return listed.map(toMCPPrompt);
  }

  /** Fills a prompt template with string arguments; its `messages` are AgentMessages. */
  async getPrompt(name: string, args: Record<string, string> = {}): Promise<MCPPromptResult> {
    if (typeof name !== "string" || name === "")
      throw new InvalidArgumentError({
        argument: "name",
        value: name,
        message: "getPrompt(name, args) needs the prompt's name.",
      });
    for (const [key, value] of Object.entries(args ?? {}))
      if (typeof value !== "string")
        throw new InvalidArgumentError({
          argument: `args.${key}`,
          value,
          message: `MCP prompt arguments are strings: args.${key} is ${typeof value}.`,
        });
    const result = await this.send((client) =>
      client.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs }),
    );
    return toMCPPromptResult(result);
  }

  /**
   * Replaces the roots the server may work in and tells it (`notifications/roots/list_changed`).
   * Needs `roots` given to `createMCPClient` (even `[]`): only then was the server told the client has roots.
   */
  async setRoots(roots: MCPRoot[]): Promise<void> {
    if (!this.requests.setRoots(roots))
      throw new InvalidArgumentError({
        argument: "roots",
        value: roots,
        message: "This client was created without `roots`: pass createMCPClient({ roots: [] }) to change them later.",
      });
    if (this.closing || this.connectionLost) return; // a new connection asks for them
    await this.send((client) => client.sendRootsListChanged());
  }

  /** One request, its failure as an MCPClientError. */
  private async send<T>(work: (client: Client) => Promise<T>): Promise<T> {
    try {
      return await this.request(undefined, work);
    } catch (error) {
      throw MCPClientError.isInstance(error) ? error : this.failure(error);
    }
  }

  /** Every page of a listing. */
  private async listAll<T>(
    kind: string,
    fetchPage: (client: Client, params: { cursor?: string }) => Promise<{ items: T[]; nextCursor?: string }>,
  ): Promise<T[]> {
    const items: T[] = [];
    const cursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < maxListPages; page++) {
      const params = cursor === undefined ? {} : { cursor };
      const result = await this.send((client) => fetchPage(client, params));
      items.push(...result.items);
      cursor = result.nextCursor;
      if (cursor === undefined) return items;
      if (cursors.has(cursor)) break;
      cursors.add(cursor);
    }
    throw new MCPClientError({
      server: this.name,
      reason: "server-error",
      message: `MCP server "${this.name}" kept returning pages of ${kind} (cursor "${cursor}" came back); the listing was stopped.`,
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

  private toTool(listedTool: MCPTool, asTask: boolean) {
    const description = listedTool.description ?? listedTool.title ?? listedTool.annotations?.title;
    return tool({
      ...(description === undefined ? {} : { description }),
      parameters: jsonSchema(listedTool.inputSchema as Record<string, unknown>),
      execute: (args, context) =>
        this.requests.during(listedTool.name, context, () => this.callTool(listedTool.name, args, context, asTask)),
    });
  }

  private async callTool(
    name: string,
    args: Record<string, unknown>,
    context: ToolExecutionContext | undefined,
    asTask: boolean,
  ): Promise<unknown> {
    const runSignal = context?.abortSignal;
    // One signal per call: the SDK never removes the listener it adds, and a run's signal lives long.
    const controller = new AbortController();
    const abort = () => controller.abort(runSignal?.reason);
    if (runSignal?.aborted) abort();
    runSignal?.addEventListener("abort", abort, { once: true });
    // Our own clock, not the SDK's: it stops while the client answers the server (sampling, elicitation).
    const deadline = startDeadline(this.timeoutMs, this.requests, controller);
    const signal = controller.signal;
    try {
      const result = await this.request(
        name,
        (client) =>
          asTask
            ? callToolAsTask(client, name, args, { signal, timeoutMs: this.timeoutMs })
            : client.callTool({ name, arguments: args }, undefined, { signal, timeout: NO_SDK_TIMEOUT }),
        signal,
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
      if (error instanceof TaskFailed)
        throw new MCPClientError({ server: this.name, reason: "tool-error", toolName: name, message: error.message });
      throw this.failure(error, name);
    } finally {
      deadline.stop();
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
    const state = { server: this.name, timeoutMs: this.timeoutMs, closing: this.closing !== undefined };
    return mcpFailure(error, { ...state, connectionLost: this.connectionLost }, toolName);
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
