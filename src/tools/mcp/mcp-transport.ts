import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";

/** An MCP server started as a child process, spoken to over its stdin and stdout. */
export interface MCPStdioTransportOptions {
  type: "stdio";
  /** The program to run (`"node"`, `"npx"`, `"uvx"`). */
  command: string;
  /** Its arguments. @default [] */
  args?: string[];
  /**
   * Environment of the process. The SDK passes only a safe few variables of this process (`HOME`,
   * `PATH`, `USER`, ...) plus these: pass API keys the server needs here.
   */
  env?: Record<string, string>;
  /** Working directory of the process. @default this process's */
  cwd?: string;
  /** Where the server's stderr goes: shown with this process's, or dropped. @default "inherit" */
  stderr?: "inherit" | "ignore";
}

/** An MCP server reached over the streamable HTTP transport. */
export interface MCPHttpTransportOptions {
  type: "http";
  /** The server's MCP endpoint (`http://127.0.0.1:3001/mcp`). */
  url: string | URL;
  /** Headers sent with every request (an `Authorization` header, an API key). */
  headers?: Record<string, string>;
  /** The fetch to use. @default globalThis.fetch */
  fetch?: (url: string | URL, init?: RequestInit) => Promise<Response>;
}

/** How to reach an MCP server: a child process, an HTTP endpoint, or any transport of the MCP SDK. */
export type MCPTransportOptions = MCPStdioTransportOptions | MCPHttpTransportOptions | Transport;

/** The transport for the options, and a name for the server until it tells its own. */
export async function createTransport(
  options: MCPTransportOptions,
): Promise<{ transport: Transport; description: string }> {
  if (isTransport(options)) return { transport: options, description: "MCP server" };
  const kind = (options as { type?: unknown } | undefined)?.type;
  if (kind === "stdio") {
    const stdio = options as MCPStdioTransportOptions;
    if (typeof stdio.command !== "string" || stdio.command === "") {
      throw new InvalidArgumentError({
        argument: "transport.command",
        value: stdio.command,
        message:
          'A stdio MCP transport needs a `command`, e.g. { type: "stdio", command: "node", args: ["server.js"] }.',
      });
    }
    // Loaded only for stdio, so agentcore/mcp over HTTP needs no child_process (edge runtimes).
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const transport = new StdioClientTransport({
      command: stdio.command,
      ...(stdio.args ? { args: stdio.args } : {}),
      ...(stdio.env ? { env: stdio.env } : {}),
      ...(stdio.cwd ? { cwd: stdio.cwd } : {}),
      ...(stdio.stderr ? { stderr: stdio.stderr } : {}),
    });
    return { transport, description: [stdio.command, ...(stdio.args ?? [])].join(" ") };
  }
  if (kind === "http") {
    const http = options as MCPHttpTransportOptions;
    let url: URL;
    try {
      url = new URL(http.url);
    } catch (error) {
      throw new InvalidArgumentError({
        argument: "transport.url",
        value: http.url,
        message: `The MCP server URL "${String(http.url)}" is not a URL; pass the full endpoint, e.g. "http://127.0.0.1:3001/mcp".`,
        cause: error,
      });
    }
    const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js");
    const transport = new StreamableHTTPClientTransport(url, {
      ...(http.headers ? { requestInit: { headers: http.headers } } : {}),
      ...(http.fetch ? { fetch: http.fetch } : {}),
    });
    return { transport, description: url.href };
  }
  throw new InvalidArgumentError({
    argument: "transport",
    value: options,
    message:
      'createMCPClient() needs a `transport`: { type: "stdio", command, args? }, { type: "http", url, headers? }, or a Transport of the MCP SDK.',
  });
}

export function isTransport(value: unknown): value is Transport {
  const candidate = value as Partial<Transport> | undefined;
  return (
    typeof candidate?.start === "function" &&
    typeof candidate.send === "function" &&
    typeof candidate.close === "function"
  );
}
