import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { errorText } from "../../errors/error-text";
import { MCPClientError } from "../../errors/mcp-client-error";

/** An SDK failure as an MCPClientError whose message the model can act on. */
export function mcpFailure(
  error: unknown,
  state: { server: string; timeoutMs: number; closing: boolean; connectionLost: boolean },
  toolName?: string,
): MCPClientError {
  const server = state.server;
  const base = { server, cause: error, ...(toolName ? { toolName } : {}) };
  const code = error instanceof McpError ? error.code : undefined;
  if (code === ErrorCode.RequestTimeout) {
    return new MCPClientError({
      ...base,
      reason: "timeout",
      message: `MCP server "${server}" did not answer within ${state.timeoutMs} ms; the request was cancelled.`,
    });
  }
  if (code === ErrorCode.ConnectionClosed || state.closing || (code !== undefined && state.connectionLost)) {
    const why = state.closing ? "its client was closed" : "the server exited or dropped the connection";
    return new MCPClientError({
      ...base,
      reason: "connection-closed",
      message: `The connection to MCP server "${server}" closed before it answered: ${why}.`,
    });
  }
  if (code === undefined) {
    // Not a JSON-RPC answer: the transport could not send (an HTTP server that is gone).
    const cause = (error as { cause?: unknown } | undefined)?.cause;
    const detail = cause === undefined ? errorText(error) : `${errorText(error)} (${errorText(cause)})`;
    return new MCPClientError({
      ...base,
      reason: "connection-closed",
      message: `Could not reach MCP server "${server}": ${detail}.`,
    });
  }
  return new MCPClientError({
    ...base,
    reason: "server-error",
    message: `MCP server "${server}" failed: ${errorText(error)}`,
  });
}

/**
 * Whether an HTTP server refused the request because it no longer knows the session (it
 * restarted): 404 as the MCP spec says, or 400 as servers built on the SDK's examples answer.
 * The POST was refused before any JSON-RPC handling, so the request never ran.
 */
export function isExpiredSession(error: unknown): boolean {
  const status = (error as { code?: unknown } | undefined)?.code;
  return (
    error instanceof Error &&
    (status === 404 || status === 400) &&
    error.message.startsWith("Streamable HTTP error: Error POSTing")
  );
}
