import { AgentCoreError } from "./agent-core-error";

const marker = "agentcore.error.MCPClientError";
const symbol = Symbol.for(marker);

/** What went wrong with an MCP server (`MCPClientError.reason`). */
export type MCPFailureReason =
  /** The server could not be started or reached, or did not complete the MCP handshake. */
  | "connect-failed"
  /** The server answered a request with a JSON-RPC error (an unknown tool, invalid parameters). */
  | "server-error"
  /** The server did not answer within the client's `timeoutMs`; the request was cancelled. */
  | "timeout"
  /** The connection closed while the request was waiting (the server process exited, the HTTP stream broke). */
  | "connection-closed"
  /** The client was closed, or its connection was lost earlier. */
  | "not-connected"
  /** The tool ran and reported a failure (`isError: true`); the message is the server's text. */
  | "tool-error"
  /** The server's tools cannot be given to a model as listed (invalid or colliding names). */
  | "invalid-tools"
  /** The server's answer is larger than the caller's limit (`readResource`'s `maxBytes`). */
  | "too-large";

/**
 * An MCP server failed, or answered something agentcore cannot use. During a run it reaches the
 * model as a tool result that says so (the run goes on); `createMCPClient()` and `tools()` throw it.
 */
export class MCPClientError extends AgentCoreError {
  private readonly [symbol] = true;
  /** The server's name (the `name` option, else the name the server gave, else its command or URL). */
  readonly server: string;
  readonly reason: MCPFailureReason;
  /** The server's name of the tool being called, for failures of a call. */
  readonly toolName: string | undefined;

  constructor(options: {
    server: string;
    reason: MCPFailureReason;
    message: string;
    toolName?: string;
    cause?: unknown;
  }) {
    super({ name: "MCPClientError", message: options.message, cause: options.cause });
    this.server = options.server;
    this.reason = options.reason;
    this.toolName = options.toolName;
  }

  static override isInstance(error: unknown): error is MCPClientError {
    return AgentCoreError.hasMarker(error, marker);
  }
}
