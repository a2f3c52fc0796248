// Who may use the inspector: the holder of its token (query, header or cookie), or whoever the
// user's own `authorize(request)` accepts.

/** The cookie the page's token is kept in after the first load. */
export const TOKEN_COOKIE = "agentcore_inspector";
/** The header a script may send the token in. */
export const TOKEN_HEADER = "x-inspector-token";

/** A random token for one start of the inspector (128 bits, URL-safe). */
export function newInspectorToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The token a request carries: `?token=`, the header, or the cookie. */
export function requestToken(request: Request, url: URL): string | undefined {
  const fromQuery = url.searchParams.get("token");
  if (fromQuery) return fromQuery;
  const fromHeader = request.headers.get(TOKEN_HEADER);
  if (fromHeader) return fromHeader;
  for (const cookie of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...value] = cookie.trim().split("=");
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join("="));
  }
  return undefined;
}

/** Compares two strings in time that depends only on their lengths. */
export function sameToken(given: string | undefined, expected: string): boolean {
  if (given === undefined || given.length !== expected.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index++)
    difference |= given.charCodeAt(index) ^ expected.charCodeAt(index);
  return difference === 0;
}
