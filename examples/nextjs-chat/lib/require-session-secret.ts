import { sessionSecret } from "./session";

/** Exits the Node.js server with a clear message when the session secret is missing (instrumentation.ts). */
export function requireSessionSecret(): void {
  try {
    sessionSecret();
  } catch (error) {
    console.error(`\n${(error as Error).message}\n`);
    process.exit(1);
  }
}
