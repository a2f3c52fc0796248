import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { validateSessionId } from "../messages/session-id";

/** Where facts are kept: per session (the default) or per user. */
export type FactScope = "session" | "user";

/**
 * The scope id under which a run's facts are stored. Session and user scopes live in separate
 * namespaces (`session:<id>`, `user:<id>`), so a session named like a user can never read that
 * user's facts. `validated: true` says the ids were validated already (the agent does it once a run).
 */
export function factScopeId(
  scope: FactScope,
  ids: { sessionId: string; userId?: string },
  options: { validated?: boolean } = {},
): string {
  if (scope === "user") {
    if (ids.userId === undefined) {
      throw new InvalidArgumentError({
        argument: "userId",
        message:
          'factScope "user" keeps facts per user: pass userId to run() or stream() (from your auth session, not the request body).',
      });
    }
    return `user:${options.validated ? ids.userId : validateSessionId(ids.userId, "userId")}`;
  }
  return `session:${options.validated ? ids.sessionId : validateSessionId(ids.sessionId)}`;
}
