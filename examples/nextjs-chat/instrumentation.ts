/**
 * Runs once when the server starts (Next.js instrumentation): outside `next dev` the server
 * refuses to start without SESSION_SECRET, which signs the session cookies (lib/session.ts).
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { requireSessionSecret } = await import("./lib/require-session-secret");
    requireSessionSecret();
  }
}
