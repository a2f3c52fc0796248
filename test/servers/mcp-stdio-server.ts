// The test MCP server over stdio, run as a child process: node --import tsx test/servers/mcp-stdio-server.ts
// Its `crash` tool makes the process exit while the call waits for an answer.
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createTestMcpServer, type McpServerLog } from "./mcp-test-server";

const log: McpServerLog = { cancelled: [], headers: [], sessions: 0, added: [] };
const server = createTestMcpServer({ log, onCrash: () => setTimeout(() => process.exit(3), 20) });
await server.connect(new StdioServerTransport());
