// createMCPClient: starts or reaches an MCP server, completes the handshake, and hands the
// connected SDK client (with a way to connect again) to MCPClient.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../errors/error-text";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import { MCPClient } from "./mcp-client";
import type { MCPSamplingOptions } from "./mcp-sampling-options";
import { type MCPElicitationHandler, type MCPRoot, MCPServerRequests } from "./mcp-server-requests";
import { createTransport, isTransport, type MCPTransportOptions } from "./mcp-transport";

const defaultTimeoutMs = 30_000;
const defaultConnectTimeoutMs = 60_000;

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
  /**
   * After the connection is lost (a stdio server exited, an HTTP server went away or restarted
   * and forgot its sessions), the next request connects again: a stdio server is started again,
   * an HTTP server gets a new session. The call in flight when the connection died is not sent
   * again (it may have had effects); it reaches the model as a tool error. A request an HTTP
   * server refused because it no longer knows the session (404, or 400 as servers built on the
   * SDK's examples answer) never ran, so it is sent once on the new session. Concurrent requests share one handshake; a failed attempt is tried again
   * by the next request. Not possible for a transport object you pass in (it cannot be reopened).
   * @default true
   */
  reconnect?: boolean;
  /**
   * Lets the server ask for a model completion (MCP sampling), answered by `model`, by default the
   * model of the agent whose tool call is waiting on the server. Off unless given: the server's
   * prompts then run on your model and your bill (docs/mcp.md, "MCP capabilities"). Bounded: at most
   * `maxTokens` (4096) per answer, `maxRequestsPerToolCall` (5) requests per tool call, none while
   * no tool call is in flight, temperature within the model's range, the server's system prompt
   * marked as the server's; `onSampling` may rewrite or refuse each request. The tokens count in
   * the run's `usage`.
   */
  sampling?: boolean | MCPSamplingOptions;
  /**
   * Lets the server ask the user a question (MCP elicitation, form mode): your function shows it
   * and returns `{ action: "accept", content }`, `{ action: "decline" }` or `{ action: "cancel" }`.
   * The call's timeout does not run while it waits. Off unless given.
   */
  elicitation?: MCPElicitationHandler;
  /**
   * The directories the server may work in (MCP roots, `file://` URIs). Change them later with
   * `mcp.setRoots()`, which tells the server. Off unless given (give `[]` to set them later).
   */
  roots?: MCPRoot[];
  /** Where warnings go (tools left out of `tools()`). @default console.warn */
  onWarning?: (message: string) => void;
}

/**
 * Connects to an MCP server and completes the MCP handshake. Throws an `MCPClientError`
 * (`reason: "connect-failed"`) when the server cannot be started or reached, or does not answer
 * within `timeoutMs`. Call `close()` when done.
 */
export async function createMCPClient(options: MCPClientOptions): Promise<MCPClient> {
  const timeoutMs = milliseconds(options, "timeoutMs", defaultTimeoutMs);
  const connectTimeoutMs = milliseconds(options, "connectTimeoutMs", defaultConnectTimeoutMs);
  const reconnect = options?.reconnect ?? true;
  if (typeof reconnect !== "boolean")
    throw new InvalidArgumentError({
      argument: "reconnect",
      value: reconnect,
      message: "reconnect must be true or false (default true).",
    });
  let name = options.name;
  const requests = new MCPServerRequests(() => name!, options);
  const connect = async (signal?: AbortSignal): Promise<Client> => {
    const { transport, description } = await createTransport(options.transport);
    name ??= description;
    const client = new Client(options.clientInfo ?? { name: "agentcore", version: "0.1.0" }, {
      capabilities: requests.capabilities(),
    });
    requests.attach(client);
    try {
      await client.connect(transport, { timeout: connectTimeoutMs, ...(signal ? { signal } : {}) });
    } catch (error) {
      await closeQuietly(client, transport);
      const detail =
        error instanceof McpError && error.code === ErrorCode.RequestTimeout
          ? `no answer within ${connectTimeoutMs} ms`
          : errorText(error);
      throw new MCPClientError({
        server: name,
        reason: "connect-failed",
        cause: error,
        message: `Could not connect to MCP server "${name}": ${detail}. Check that it starts on its own and speaks MCP.`,
      });
    }
    return client;
  };
  const client = await connect();
  name = options.name ?? client.getServerVersion()?.name ?? name;
  // A transport object passed in is started once; only transports made from options can be made again.
  const reusable = reconnect && !isTransport(options.transport);
  return new MCPClient(client, {
    name: name!,
    timeoutMs,
    requests,
    warn: options.onWarning ?? ((message) => console.warn(message)),
    ...(reusable ? { reopen: connect } : {}),
    cannotReopen: reconnect
      ? "; a transport object passed to createMCPClient cannot be reopened: create a new client"
      : "; reconnecting is off (reconnect: false)",
  });
}

function milliseconds(
  options: MCPClientOptions | undefined,
  name: "timeoutMs" | "connectTimeoutMs",
  fallback: number,
): number {
  const value = options?.[name] ?? fallback;
  if (typeof value === "number" && Number.isFinite(value) && value > 0) return value;
  throw new InvalidArgumentError({
    argument: name,
    value,
    message: `${name} must be a positive number of milliseconds (default ${fallback}).`,
  });
}

async function closeQuietly(client: Client, transport: Transport): Promise<void> {
  await client.close().catch(() => undefined);
  await transport.close().catch(() => undefined);
}
