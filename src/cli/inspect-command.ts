import { spawn } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createInspectorHandler } from "../inspector/create-inspector-handler";
import { newInspectorToken } from "../inspector/inspector-auth";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import { CliError } from "./cli-error";
import { openStore } from "./open-store";

export interface InspectCommandOptions {
  store: string;
  port?: string;
  host?: string;
  open?: boolean;
  allowDelete?: boolean;
  provider?: string;
}

/** Bodies a request may carry (only the delete endpoint takes one, and an empty one). */
const MAX_REQUEST_BYTES = 64 * 1024;

/**
 * `agentcore inspect`: serves the inspector for a store on 127.0.0.1 (a random free port unless
 * `--port`), with a token made for this start in the fragment of the URL it prints, answering only
 * requests that name its own address. Runs until SIGINT or SIGTERM.
 */
export async function inspectCommand(options: InspectCommandOptions): Promise<void> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port === undefined ? 0 : Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new CliError(`--port ${options.port}: give a port number (0-65535).`);
  const provider = options.provider ? await loadProvider(options.provider) : undefined;
  const opened = await openStore(options.store);
  const token = newInspectorToken();
  // The handler is made once the port is known (it checks the Host header against it).
  let handler: ((request: Request) => Promise<Response>) | undefined;
  const server = createServer((request, response) => {
    if (!handler) {
      response.writeHead(503, { "content-type": "text/plain" }).end("agentcore inspect: starting.\n");
      return;
    }
    serve(handler, request, response, host).catch((error) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(`agentcore inspect: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once("error", (error) => reject(new CliError(`Cannot listen on ${host}:${port}: ${error.message}`)));
    server.listen(port, host, () => resolveListen());
  });
  const address = server.address() as AddressInfo;
  const hosts = hostNames(address, host);
  handler = createInspectorHandler({
    store: opened.store,
    token,
    allowDelete: options.allowDelete === true,
    ...(hosts ? { allowedHosts: hosts } : {}),
    ...(provider ? { provider } : {}),
  });
  const shownHost = host.includes(":") ? `[${host}]` : host;
  // In the fragment: a browser never sends it to a server; the page moves it to its tab's storage.
  const url = `http://${shownHost}:${address.port}/#token=${token}`;
  process.stdout.write(
    `agentcore inspect: ${opened.label}${options.allowDelete ? " (deleting allowed)" : " (read-only)"}\n` +
      `Open ${url}\n` +
      (isLoopback(host)
        ? ""
        : `Warning: listening on ${host}, reachable from other machines; anyone with the URL can read every session.\n`) +
      "Press Ctrl+C to stop.\n",
  );
  if (options.open) openBrowser(url);
  await new Promise<void>((resolveStop) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      server.closeAllConnections();
      server.close(() => resolveStop());
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  await opened.close();
}

/** Hands a Node request to the Fetch handler and writes its response back. */
async function serve(
  handler: (request: Request) => Promise<Response>,
  request: IncomingMessage,
  response: ServerResponse,
  host: string,
): Promise<void> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_REQUEST_BYTES) {
      response.writeHead(413).end();
      return;
    }
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const method = request.method ?? "GET";
  const body = method === "GET" || method === "HEAD" || chunks.length === 0 ? undefined : Buffer.concat(chunks);
  const answer = await handler(
    new Request(new URL(request.url ?? "/", `http://${host.includes(":") ? `[${host}]` : host}`), {
      method,
      headers,
      ...(body ? { body } : {}),
    }),
  );
  const out: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    out[name] = value;
  });
  response.writeHead(answer.status, out);
  response.end(method === "HEAD" || !answer.body ? undefined : Buffer.from(await answer.arrayBuffer()));
}

/** A module whose default export (or `provider` export) is a recall provider, or a function that makes one. */
async function loadProvider(path: string): Promise<RecallMemoryProvider> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(resolve(path)).href)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(`--provider ${path}: cannot load it: ${error instanceof Error ? error.message : String(error)}`);
  }
  let exported = module.default ?? module.provider;
  if (typeof exported === "function") exported = await (exported as () => unknown)();
  const candidate = exported as RecallMemoryProvider | undefined;
  if (!candidate || typeof candidate.read !== "function") {
    throw new CliError(
      `--provider ${path}: export a memory provider (an object with read()) as default or as "provider".`,
    );
  }
  return candidate;
}

/**
 * The Host header values this server answers: its bound address with the port (and the `--host`
 * name given), and `localhost` for a loopback one (`127.0.0.1:<port>`, `[::1]:<port>`). Any other
 * name reaching it is a page whose DNS was pointed at this machine (rebinding): refused. Undefined
 * when listening on every address (`--host 0.0.0.0`), where any of the machine's names may be used.
 */
function hostNames(address: AddressInfo, given: string): string[] | undefined {
  if (address.address === "0.0.0.0" || address.address === "::") return undefined;
  const bound = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const named = given.includes(":") ? `[${given}]` : given;
  const names = [...new Set([bound, named, ...(isLoopback(address.address) ? ["localhost"] : [])])];
  // A browser leaves the default port out of Host.
  return names.flatMap((name) => (address.port === 80 ? [`${name}:80`, name] : [`${name}:${address.port}`]));
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost";
}

/** Opens the URL in the desktop's browser; a failure only means the user opens it by hand. */
function openBrowser(url: string): void {
  const [command, ...args] =
    process.platform === "darwin"
      ? ["open", url]
      : process.platform === "win32"
        ? ["cmd", "/c", "start", "", url]
        : ["xdg-open", url];
  try {
    const child = spawn(command!, args, { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
  } catch {
    // printed above: the user can open it
  }
}
