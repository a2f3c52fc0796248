// Who may use the inspector: the holder of its token (the `x-inspector-token` header the page
// sends from its tab's sessionStorage), or whoever the user's own `authorize(request)` accepts.
// No cookie: a cookie is scoped by host, not port, so every server on 127.0.0.1 would receive it.

/** The header the page (or a script) sends the token in. */
export const TOKEN_HEADER = "x-inspector-token";

/** A random token for one start of the inspector (128 bits, URL-safe). */
export function newInspectorToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The token a request carries in its header (never a cookie or the query). */
export function requestToken(request: Request): string | undefined {
  return request.headers.get(TOKEN_HEADER) || undefined;
}

/** Compares two strings in time that depends only on their lengths. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined || given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index++)
    difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}

/**
 * Whether the request's `Host` header is one of `allowedHosts` (compared lowercased; a request
 * without one is refused). A page of another site whose name was made to resolve to 127.0.0.1
 * (DNS rebinding) sends its own name, so it is refused before anything else is read.
 */
export function allowedHost(request: Request, allowedHosts: readonly string[]): boolean {
  const host = request.headers.get("host")?.toLowerCase();
  return host !== undefined && allowedHosts.includes(host);
}
