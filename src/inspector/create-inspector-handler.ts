import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import type { MemoryStore } from "../stores/memory-store";
import { adaptStore } from "../stores/store-adapter";
import { apiError, deleteSession, listSessions, partContent, recall, sessionDetail } from "./inspector-api";
import { allowedHost, requestToken, sameToken } from "./inspector-auth";
import { inspectorAsset, inspectorPage } from "./inspector-page";
import { jsonError, secureResponse } from "./inspector-responses";

/** Options of {@link createInspectorHandler}. */
export interface InspectorHandlerOptions {
  /** The store whose sessions, context reports, summaries and facts are shown. */
  store: MemoryStore;
  /** The recall provider the page's query box asks (`read` with the query typed). Without it, no query box. */
  provider?: RecallMemoryProvider;
  /**
   * The secret every API request must carry in the `x-inspector-token` header. Open the page as
   * `<basePath>/#token=<token>`: the page takes it from the fragment (which no browser sends to a
   * server), keeps it in its tab's `sessionStorage` and sends it with each of its requests. The
   * page and its script files hold no data and are served without it. At least 16 characters.
   * Give `token`, `authorize`, or both (then both must pass).
   */
  token?: string;
  /** Decides who may use the inspector, page included (your app's own session check). False: 401. */
  authorize?: (request: Request) => boolean | Promise<boolean>;
  /** Lets the page delete a session (`clearMessages`), after a confirmation. @default false */
  allowDelete?: boolean;
  /** The path the handler is mounted at, such as `"/admin/inspector"` (no trailing slash). @default "" */
  basePath?: string;
  /**
   * The `Host` header values served, as `host:port` (such as `["127.0.0.1:4000", "localhost:4000"]`):
   * a request naming any other host (or none) gets 421 before anything else, which defeats DNS
   * rebinding against a server on a loopback address. `agentcore inspect` passes its bound address.
   * @default undefined (not checked: your app's router knows its own host names)
   */
  allowedHosts?: readonly string[];
}

/**
 * The inspector as a Fetch API handler: the page and its JSON API, for `agentcore inspect` or a
 * route of your own app (a Next.js `app/admin/inspector/[[...path]]/route.ts` exporting it as
 * `GET` and `POST`). Read-only unless `allowDelete`. Refuses every API request without the token
 * (or that `authorize` rejects), and every request naming a host not in `allowedHosts`. Every
 * response carries a strict Content-Security-Policy.
 */
export function createInspectorHandler(options: InspectorHandlerOptions): (request: Request) => Promise<Response> {
  const { store, provider, token, authorize } = checkOptions(options);
  const adapted = adaptStore(store);
  const basePath = options.basePath ?? "";
  const allowDelete = options.allowDelete === true;
  const allowedHosts = options.allowedHosts?.map((host) => host.toLowerCase());
  const refused = () =>
    secureResponse("agentcore inspector: open it with the URL that holds its token (#token=…).\n", 401, {
      "content-type": "text/plain; charset=utf-8",
    });

  return async (request) => {
    const url = new URL(request.url);
    if (allowedHosts && !allowedHost(request, allowedHosts)) {
      return secureResponse("agentcore inspector: this server does not answer for that host name.\n", 421, {
        "content-type": "text/plain; charset=utf-8",
      });
    }
    if (!url.pathname.startsWith(basePath)) return jsonError(404, "Not found.");
    const path = url.pathname.slice(basePath.length);
    const method = request.method.toUpperCase();
    if (authorize && !(await authorize(request))) return refused();
    if (path === "") return secureResponse(null, 308, { location: `${basePath}/${url.search}` });
    // The page and its files are the package's own, the same for everyone: no token (a browser
    // cannot send a header when it navigates). Everything that reads or changes the store needs it.
    const staticFile = path === "/" || path.startsWith("/assets/");
    if (!staticFile && token !== undefined && !sameToken(requestToken(request), token)) return refused();
    try {
      if (method === "POST" && path === "/api/delete") {
        // A header a form cannot send: a page of another origin cannot post here without a preflight.
        if (!allowDelete || request.headers.get("x-agentcore-inspector") !== "delete")
          return jsonError(403, "Deleting is off (start the inspector with --allow-delete).");
        return await deleteSession(adapted, url);
      }
      if (method !== "GET" && method !== "HEAD") return jsonError(405, "Read-only: GET only.");
      if (path === "/") return inspectorPage({ allowDelete, recall: provider !== undefined });
      if (path.startsWith("/assets/")) return inspectorAsset(path.slice("/assets/".length));
      if (path === "/api/sessions") return await listSessions(adapted, url);
      if (path === "/api/session") return await sessionDetail(adapted, url);
      if (path === "/api/part") return await partContent(adapted, url);
      if (path === "/api/recall") return await recall(provider, url);
      return jsonError(404, "Not found.");
    } catch (error) {
      return apiError(error);
    }
  };
}

function checkOptions(options: InspectorHandlerOptions): InspectorHandlerOptions {
  if (options == null || typeof options !== "object" || typeof options.store?.getMessages !== "function") {
    throw new InvalidArgumentError({
      argument: "store",
      value: options?.store,
      message: "createInspectorHandler needs { store }: the MemoryStore to show.",
    });
  }
  if (options.token === undefined && options.authorize === undefined) {
    throw new InvalidArgumentError({
      argument: "token",
      value: undefined,
      message:
        "createInspectorHandler needs a token or an authorize(request) function: the inspector shows every conversation in the store and is never open to anyone.",
    });
  }
  if (options.token !== undefined && (typeof options.token !== "string" || options.token.length < 16)) {
    throw new InvalidArgumentError({
      argument: "token",
      value: "(hidden)",
      message: "token must be a string of at least 16 characters (newInspectorToken() makes one).",
    });
  }
  if (options.authorize !== undefined && typeof options.authorize !== "function") {
    throw new InvalidArgumentError({
      argument: "authorize",
      value: options.authorize,
      message: "authorize must be a function of the request.",
    });
  }
  const hosts = options.allowedHosts;
  if (hosts !== undefined && (!Array.isArray(hosts) || hosts.some((host) => typeof host !== "string" || host === ""))) {
    throw new InvalidArgumentError({
      argument: "allowedHosts",
      value: hosts,
      message: 'allowedHosts must be an array of host names with their port, such as ["127.0.0.1:4000"].',
    });
  }
  const basePath = options.basePath;
  if (
    basePath !== undefined &&
    (typeof basePath !== "string" || (basePath !== "" && (!basePath.startsWith("/") || basePath.endsWith("/"))))
  ) {
    throw new InvalidArgumentError({
      argument: "basePath",
      value: basePath,
      message: 'basePath must start with "/" and not end with one, such as "/admin/inspector".',
    });
  }
  return options;
}
