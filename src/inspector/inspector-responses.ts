// The responses of the inspector: every one with headers that keep a browser from running or
// sniffing anything but the page's own scripts.

/**
 * The page's Content-Security-Policy: its own scripts and styles only (no inline script, no
 * eval), images from itself (the part endpoint) and `blob:`, requests to itself, no frames, no
 * plugins, no base or form targets elsewhere.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store",
};

/** A response with the security headers (and `extra`). */
export function secureResponse(body: BodyInit | null, status: number, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, ...extra } });
}

/** A JSON response. JSON escapes `<` too, so a message's text can never close a tag if it were ever inlined. */
export function json(value: unknown, status = 200): Response {
  const text = JSON.stringify(value).replace(/</g, "\\u003c");
  return secureResponse(text, status, { "content-type": "application/json; charset=utf-8" });
}

/** An error as JSON: `{ error }`. */
export function jsonError(status: number, error: string): Response {
  return json({ error }, status);
}
