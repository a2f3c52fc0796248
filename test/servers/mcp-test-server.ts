// Real MCP servers for the agentcore/mcp tests, written with the official SDK: the same tools
// served over stdio (test/servers/mcp-stdio-server.ts, a child process) and over streamable HTTP
// on a loopback port (startMcpHttpServer, in the test's process).
import { randomUUID } from "node:crypto";
import { createServer, type Server as HttpServer } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";

/** What the server saw, for tests that check the client's side effects. */
export interface McpServerLog {
  /** Tool calls the client cancelled (the handler's signal aborted), by tool name. */
  cancelled: string[];
  /** Headers of the HTTP requests (lower-cased names), for the `headers` option. */
  headers: Record<string, string | string[] | undefined>[];
  /** Sessions initialized (MCP handshakes completed). */
  sessions: number;
  /** The sums the add tool computed, in order: each call that ran. */
  added: number[];
}

const onePixelPng = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/**
 * The test tools: add (text), weather (structured content with an output schema), lookup
 * (isError), media (image, audio, resource link, embedded resources), hang (never answers; notes
 * its cancellation), cancellations (what was cancelled so far), crash (`onCrash`: the stdio
 * server exits mid-call).
 */
export function createTestMcpServer(options: { log: McpServerLog; onCrash: () => void }): McpServer {
  const server = new McpServer({ name: "agentcore-test-server", version: "1.0.0" });
  server.registerTool(
    "add",
    { description: "Adds two numbers", inputSchema: { a: z.number(), b: z.number() } },
    async ({ a, b }) => {
      options.log.added.push(a + b);
      return { content: [{ type: "text", text: String(a + b) }] };
    },
  );
  server.registerTool(
    "weather",
    {
      description: "The weather in a city",
      inputSchema: { city: z.string() },
      outputSchema: { city: z.string(), temperatureC: z.number(), conditions: z.string() },
    },
    async ({ city }) => {
      const structuredContent = { city, temperatureC: 21, conditions: "sunny" };
      return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
    },
  );
  server.registerTool(
    "lookup",
    { description: "Looks a city up", inputSchema: { city: z.string() } },
    async ({ city }) => ({
      isError: true,
      content: [{ type: "text", text: `No city called "${city}" in the atlas.` }],
    }),
  );
  server.registerTool("media", { description: "Returns one block of each kind" }, async () => ({
    content: [
      { type: "text", text: "Here is the chart." },
      { type: "image", data: onePixelPng, mimeType: "image/png" },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      {
        type: "resource_link",
        uri: "file:///reports/q3.pdf",
        name: "q3.pdf",
        mimeType: "application/pdf",
        description: "Third-quarter report",
      },
      { type: "resource", resource: { uri: "file:///notes.txt", mimeType: "text/plain", text: "remember the milk" } },
      {
        type: "resource",
        resource: { uri: "file:///blob.bin", mimeType: "application/octet-stream", blob: "AAAAAAAA" },
      },
    ],
  }));
  server.registerTool(
    "hang",
    { description: "Never answers" },
    async (extra) =>
      new Promise<never>(() => {
        extra.signal.addEventListener("abort", () => options.log.cancelled.push("hang"));
      }),
  );
  server.registerTool("cancellations", { description: "The calls cancelled so far" }, async () => ({
    content: [{ type: "text", text: JSON.stringify(options.log.cancelled) }],
  }));
  server.registerTool("crash", { description: "Dies while running" }, async () => {
    options.onCrash();
    return new Promise<never>(() => {});
  });
  return server;
}

/**
 * A low-level SDK server whose `tools/list` pages through `count` tools (`echo_0`, ...), `pageSize`
 * a page; each echoes its `text`. `extraNames` adds tools with those names (invalid-name tests).
 */
export function createManyToolsServer(options: {
  count: number;
  pageSize: number;
  extraNames?: string[];
  pages?: number[];
}): Server {
  const server = new Server({ name: "many-tools", version: "1.0.0" }, { capabilities: { tools: {} } });
  const names = [
    ...Array.from({ length: options.count }, (_, index) => `echo_${index}`),
    ...(options.extraNames ?? []),
  ];
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    options.pages?.push(start);
    const page = names.slice(start, start + options.pageSize);
    const next = start + options.pageSize;
    return {
      tools: page.map((name) => ({
        name,
        description: `Echoes text (${name})`,
        inputSchema: { type: "object" as const, properties: { text: { type: "string" } }, required: ["text"] },
      })),
      ...(next < names.length ? { nextCursor: String(next) } : {}),
    };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({
    content: [{ type: "text", text: `${request.params.name}: ${String(request.params.arguments?.text)}` }],
  }));
  return server;
}

export interface McpHttpServer {
  /** `http://127.0.0.1:<port>/mcp` */
  url: string;
  log: McpServerLog;
  /** Drops every open connection and stops listening (the server "dies"). */
  kill(): Promise<void>;
  close(): Promise<void>;
}

/** Serves MCP over streamable HTTP on a loopback port, one SDK server per session (stateful mode). */
export async function startMcpHttpServer(
  create: (log: McpServerLog) => McpServer | Server = (log) => createTestMcpServer({ log, onCrash: () => {} }),
  options: { port?: number } = {},
): Promise<McpHttpServer> {
  const log: McpServerLog = { cancelled: [], headers: [], sessions: 0, added: [] };
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const sockets = new Set<Socket>();
  const http: HttpServer = createServer(async (request, response) => {
    log.headers.push(request.headers);
    const sessionId = request.headers["mcp-session-id"];
    let transport = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (!transport) {
      const fresh: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, fresh);
          log.sessions++;
        },
      });
      await create(log).connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(request, response);
  });
  http.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  const stop = async (force: boolean) => {
    if (force) for (const socket of sockets) socket.destroy();
    else await Promise.all([...sessions.values()].map((transport) => transport.close().catch(() => undefined)));
    await new Promise<void>((resolve) => http.close(() => resolve()));
  };
  return { url, log, kill: () => stop(true), close: () => stop(false) };
}
