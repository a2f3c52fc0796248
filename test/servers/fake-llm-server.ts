// A loopback HTTP server that answers like an LLM provider, from a per-test script. It speaks
// the real wire formats (JSON and server-sent events) so the official SDK clients can be pointed
// at it by baseURL, and records every request it receives.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  /** The parsed JSON body (`undefined` when there was none). */
  body: any;
}

/** One server-sent event: `event: <event>` (when set) and `data: <JSON or raw string>`. */
export interface ServerSentEvent {
  event?: string;
  /** An object is sent as JSON; a string (e.g. `"[DONE]"`) as is. */
  data: unknown;
}

export type ScriptedResponse =
  /** Never answers: the request stays open until the client goes away (abort before headers). */
  | { kind: "hang" }
  /** `raw`: the body's text as is, for JSON `JSON.stringify` cannot write (nested thousands deep). */
  | { kind: "json"; status?: number; headers?: Record<string, string>; body: unknown; raw?: string }
  | {
      kind: "sse";
      events: ServerSentEvent[];
      /** Milliseconds between events. @default 0 */
      delayMs?: number;
      /** After the events, keep the response open until the client goes away (abort tests). */
      hang?: boolean;
      /** After the events, drop the connection without ending the response (a body cut off mid-stream). */
      cut?: boolean;
      /** After `after` events (flushed), wait until `until` resolves or the client goes away, then go on. */
      hold?: { after: number; until: Promise<void> };
    };

export class FakeLlmServer {
  readonly requests: RecordedRequest[] = [];
  /** Responses the client closed before the server finished writing them. */
  closedEarly = 0;
  private readonly script: ScriptedResponse[] = [];
  private readonly closeWaiters: (() => void)[] = [];
  private readonly server: Server;
  private port = 0;

  private constructor(private readonly fallback?: (request: RecordedRequest) => ScriptedResponse) {
    this.server = createServer((request, response) => {
      void this.handle(request, response);
    });
  }

  /**
   * `fallback` answers every request the script has no response for (a server that answers
   * whatever comes, as the README-and-docs test needs); without it such a request gets a 500.
   */
  static async start(
    options: { fallback?: (request: RecordedRequest) => ScriptedResponse } = {},
  ): Promise<FakeLlmServer> {
    const fake = new FakeLlmServer(options.fallback);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** `http://127.0.0.1:<port>` (add `/v1` for the openai SDK). */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queues responses, answered in order, one per request. */
  enqueue(...responses: ScriptedResponse[]): this {
    this.script.push(...responses);
    return this;
  }

  /** Scripted responses not used yet. */
  get pending(): number {
    return this.script.length;
  }

  /** Resolves once a client has closed a response before it ended. */
  waitForEarlyClose(): Promise<void> {
    if (this.closedEarly > 0) return Promise.resolve();
    return new Promise((resolve) => this.closeWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
    }
    this.requests.push({
      method: request.method ?? "",
      path: request.url ?? "",
      headers,
      body: text ? JSON.parse(text) : undefined,
    });

    response.on("close", () => {
      if (!response.writableEnded) {
        this.closedEarly++;
        for (const resolve of this.closeWaiters.splice(0)) resolve();
      }
    });

    const next = this.script.shift() ?? this.fallback?.(this.requests.at(-1)!);
    if (!next) {
      response.writeHead(500, { "content-type": "application/json", "x-should-retry": "false" });
      response.end(
        JSON.stringify({
          error: { type: "test_error", message: `No scripted response for request ${this.requests.length}.` },
        }),
      );
      return;
    }
    if (next.kind === "hang") return;
    if (next.kind === "json") {
      response.writeHead(next.status ?? 200, { "content-type": "application/json", ...next.headers });
      response.end(next.raw ?? JSON.stringify(next.body));
      return;
    }
    response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    for (const [index, event] of next.events.entries()) {
      if (next.hold?.after === index) {
        const gone = new Promise<void>((resolve) => response.once("close", () => resolve()));
        await new Promise<void>((resolve) => response.write("", () => resolve()));
        await Promise.race([next.hold.until, gone]);
      }
      if (response.destroyed) return;
      if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
      if (response.destroyed) return;
      const data = typeof event.data === "string" ? event.data : JSON.stringify(event.data);
      response.write(`${event.event ? `event: ${event.event}\n` : ""}data: ${data}\n\n`);
    }
    if (next.cut) {
      // Flushed first, so the client reads the events before the connection goes.
      await new Promise<void>((resolve) => response.write("", () => resolve()));
      response.socket?.destroy();
    } else if (!next.hang) {
      response.end();
    }
  }
}
