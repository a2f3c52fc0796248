/**
 * The browser's session: a signed, http-only cookie holding { sessionId, userId }, made on the
 * first visit. Signed with HMAC-SHA-256 through Web Crypto, so the same code runs in the Node
 * route and the edge route. The browser never names its own session.
 */
export const SESSION_COOKIE = "agentcore_chat";

export interface ChatSession {
  sessionId: string;
  userId: string;
}

const encoder = new TextEncoder();
let signingKey: Promise<CryptoKey> | undefined;

/** The development-only secret: a public value, so `next start` refuses to run with it. */
const DEVELOPMENT_SECRET = "dev-only-secret-change-me";

/**
 * The cookie signing secret: SESSION_SECRET, or, under `next dev` only, a public development value.
 * Outside development a missing secret is an error that says what to set (instrumentation.ts
 * checks it when the server starts, so `next start` refuses to run without it).
 */
export function sessionSecret(): string {
  const secret = process.env.SESSION_SECRET;
  if (secret) return secret;
  if (process.env.NODE_ENV === "development") return DEVELOPMENT_SECRET;
  throw new Error(
    "SESSION_SECRET is not set. It signs the session cookie: without it anyone could forge a session. " +
      "Set it to a long random value before `next start`, e.g. SESSION_SECRET=$(openssl rand -hex 32).",
  );
}

function key(): Promise<CryptoKey> {
  const secret = sessionSecret();
  signingKey ??= crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);
  return signingKey;
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

export async function signSession(session: ChatSession): Promise<string> {
  const payload = toBase64Url(encoder.encode(JSON.stringify(session)));
  const signature = await crypto.subtle.sign("HMAC", await key(), encoder.encode(payload));
  return `${payload}.${toBase64Url(new Uint8Array(signature))}`;
}

/** The session in a cookie value, or undefined when it is missing, malformed or not signed by us. */
export async function readSession(cookieValue: string | undefined): Promise<ChatSession | undefined> {
  const [payload, signatureText, ...rest] = cookieValue?.split(".") ?? [];
  if (!payload || !signatureText || rest.length > 0) return undefined;
  try {
    const signature = fromBase64Url(signatureText);
    // verify() compares in constant time.
    if (!signature || !(await crypto.subtle.verify("HMAC", await key(), signature, encoder.encode(payload))))
      return undefined;
    const session = JSON.parse(new TextDecoder().decode(fromBase64Url(payload))) as Partial<ChatSession>;
    return typeof session.sessionId === "string" && typeof session.userId === "string"
      ? { sessionId: session.sessionId, userId: session.userId }
      : undefined;
  } catch {
    return undefined; // bad base64 or JSON
  }
}

export function newSession(): ChatSession {
  return { sessionId: `chat-${crypto.randomUUID()}`, userId: `user-${crypto.randomUUID()}` };
}
