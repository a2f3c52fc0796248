// A loopback HTTP proxy with faults, put in front of the Upstash REST bridge
// (upstash-rest-bridge.ts) to test what a store does when the server misbehaves: a request that
// never gets an answer, or a 200 whose body is not what the protocol says (after the request
// reached the server, or instead of it).
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the proxy does to the requests it matches. */
export type ProxyFault =
  /** Never answers (the connection stays open until the proxy closes). */
  | { kind: "hang" }
  /** Holds the request, not forwarded, until `forwardHeld()` forwards it (then answers as the server does). */
  | { kind: "hold" }
  /** Answers 200 with this JSON body without forwarding (the server never sees the request). */
  | { kind: "answer"; body: unknown }
  /** Forwards, then answers 200 with `rewrite(the server's parsed body)` (the server did the work). */
  | { kind: "rewrite"; rewrite: (body: unknown) => unknown };

export interface FaultProxy {
  url: string;
  /** Applies `fault` to the requests whose path is one of `paths` (all when omitted), until called with undefined. */
  setFault(fault: ProxyFault | undefined, paths?: string[]): void;
  /** Requests the proxy held without an answer ("hang"). */
  readonly hanging: number;
  /** Requests held now ("hold"), not yet forwarded. */
  readonly held: number;
  /** Forwards the requests held ("hold") to the server; resolves once each got the server's answer. */
  forwardHeld(): Promise<void>;
  close(): Promise<void>;
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const upstream = new URL(target);
  let fault: ProxyFault | undefined;
  let faultPaths: string[] | undefined;
  let hanging = 0;
  let held: (() => Promise<void>)[] = [];
  const readBody = async (stream: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const path = new URL(request.url ?? "/", "http://proxy").pathname;
    const active = fault && (!faultPaths || faultPaths.includes(path)) ? fault : undefined;
    if (active?.kind === "hang") {
      hanging++;
      return;
    }
    if (active?.kind === "answer") {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify(active.body));
    }
    const forward = () =>
      new Promise<void>((resolve) => {
        const forwarded = httpRequest(
          {
            host: upstream.hostname,
            port: upstream.port,
            path: request.url,
            method: request.method,
            headers: { ...request.headers, host: upstream.host },
          },
          async (answer) => {
            const answered = await readBody(answer);
            if (active?.kind === "rewrite" && answer.statusCode === 200) {
              response.writeHead(200, { "content-type": "application/json" });
              return response.end(JSON.stringify(active.rewrite(JSON.parse(answered.toString("utf8")))));
            }
            response.writeHead(answer.statusCode ?? 502, answer.headers);
            response.end(answered);
          },
        );
        forwarded.on("error", () => response.destroy());
        forwarded.end(body);
        response.on("close", () => resolve());
      });
    if (active?.kind === "hold") {
      held.push(forward);
      return;
    }
    await forward();
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setFault: (next, paths) => {
      fault = next;
      faultPaths = paths;
    },
    get hanging() {
      return hanging;
    },
    get held() {
      return held.length;
    },
    forwardHeld: async () => {
      const forwarding = held;
      held = [];
      await Promise.all(forwarding.map((forward) => forward()));
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
