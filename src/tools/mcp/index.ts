// agentcore/mcp: tools from MCP servers. Needs the optional peer `@modelcontextprotocol/sdk`.
export { createMCPClient, type MCPClientOptions } from "./create-mcp-client";
export { MCPClient, type MCPToolsOptions } from "./mcp-client";
export type { MCPHttpTransportOptions, MCPStdioTransportOptions, MCPTransportOptions } from "./mcp-transport";
export { MCPClientError, type MCPFailureReason } from "../../errors/mcp-client-error";
