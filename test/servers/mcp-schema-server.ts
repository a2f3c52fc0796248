// An MCP server over stdio whose tools are listed with raw JSON Schemas that recurse, run as a
// child process: node --import tsx test/servers/mcp-schema-server.ts [--loop]
// `tree` takes a tree (its children refer back to the root schema: a usable recursive type) and
// answers with the tree's depth; with --loop it also lists `loop`, whose schema refers to itself
// without describing anything deeper (`$defs: { a: { $ref: "#/$defs/a" } }`).
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const tree = {
  name: "tree",
  description: "Measures a tree",
  inputSchema: {
    type: "object" as const,
    properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
    required: ["name"],
  },
};
const loop = {
  name: "loop",
  description: "A schema that refers to itself",
  inputSchema: {
    type: "object" as const,
    properties: { x: { $ref: "#/$defs/a" } },
    $defs: { a: { $ref: "#/$defs/a" } },
  },
};

const depthOf = (node: { children?: unknown[] }): number =>
  1 + Math.max(0, ...(node.children ?? []).map((child) => depthOf(child as { children?: unknown[] })));

const server = new Server({ name: "schema-server", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: process.argv.includes("--loop") ? [tree, loop] : [tree],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: "text", text: `depth ${depthOf(request.params.arguments ?? {})}` }],
}));
await server.connect(new StdioServerTransport());
