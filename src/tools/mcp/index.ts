// agentcore/mcp: tools from MCP servers. Needs the optional peer `@modelcontextprotocol/sdk`.
export { createMCPClient, type MCPClientOptions } from "./create-mcp-client";
export { MCPClient } from "./mcp-client";
export type { MCPToolsOptions } from "./mcp-tool-set";
export type { MCPHttpTransportOptions, MCPStdioTransportOptions, MCPTransportOptions } from "./mcp-transport";
export { MCPClientError, type MCPFailureReason } from "../../errors/mcp-client-error";
export type {
  MCPElicitationHandler,
  MCPElicitationRequest,
  MCPElicitationResult,
  MCPRoot,
} from "./mcp-server-requests";
export type {
  MCPSamplingContext,
  MCPSamplingDecision,
  MCPSamplingOptions,
  MCPSamplingRequest,
} from "./mcp-sampling-options";
export type {
  MCPPrompt,
  MCPPromptResult,
  MCPReadResourceOptions,
  MCPResource,
  MCPResourceContents,
  MCPResourcePart,
} from "./mcp-documents";
