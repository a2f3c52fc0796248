// How PostgresMemoryStore sends statements and reads their failures: prepared-statement names,
// the StoreError a failure becomes, and whether a failure means the connection is gone.
import { createHash } from "node:crypto";
import { errorText } from "../../errors/error-text";
import { StoreError } from "../../errors/store-error";

/** Statement names by text, shared by every store of the process (a name is derived from its text alone). */
const statementNames = new Map<string, string>();

/**
 * A statement as `pg` sends it, named after a hash of its text (so one name is one text, on every
 * connection): `pg` prepares it once per connection and then only binds and runs it.
 */
export function namedStatement(text: string, values: unknown[]): { text: string; values: unknown[]; name: string } {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `agentcore_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    if (statementNames.size >= 1_000) statementNames.clear();
    statementNames.set(text, name);
  }
  return { name, text, values };
}

/** A failure of `operation` as a StoreError of `store` (a StoreError already is one). */
export function postgresStoreError(
  store: string,
  operation: string,
  sessionId: string | undefined,
  error: unknown,
): unknown {
  if (StoreError.isInstance(error)) return error;
  return new StoreError({
    store,
    operation,
    ...(sessionId === undefined ? {} : { sessionId }),
    message: `PostgreSQL failed during ${operation}${sessionId === undefined ? "" : ` of session "${sessionId}"`}: ${errorText(error)}`,
    cause: error,
  });
}

/** Whether an error may mean the connection itself is gone (killed, reset, shut down). */
export function isConnectionError(error: unknown): boolean {
  if (StoreError.isInstance(error)) return false;
  const { code, severity } = (error ?? {}) as { code?: unknown; severity?: unknown };
  return (
    typeof severity !== "string" || (typeof code === "string" && (code.startsWith("57P") || code.startsWith("08")))
  );
}
