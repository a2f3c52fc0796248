// `agentcore users …`: a user's chats, what they spent, and deleting a user's data (docs/threads.md).
import { backendOf } from "../stores/backend-of";
import { CliError } from "./cli-error";
import type { OpenedStore } from "./open-store";
import { formatTime, type Output } from "./output";

/** Checks a user id given on the command line (a usage error, exit code 2, when empty). */
function checkUserId(userId: string): string {
  if (typeof userId !== "string" || userId.trim() === "") throw new CliError("a user id is needed", 2);
  return userId;
}

/** `agentcore users sessions <userId>`: the user's chats, newest first, with titles and tokens spent. */
export async function listUserSessions(
  { store }: OpenedStore,
  output: Output,
  userId: string,
  options: { limit?: string; cursor?: string } = {},
): Promise<void> {
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  const page = await backendOf(store).listSessions({
    userId: checkUserId(userId),
    limit,
    ...(options.cursor === undefined ? {} : { cursor: options.cursor }),
  });
  if (output.json) return output.data(page);
  if (page.sessions.length === 0) return output.line(`No sessions of user ${userId}.`);
  output.table(
    ["session", "title", "messages", "tokens", "last used"],
    page.sessions.map((entry) => [
      entry.sessionId,
      entry.title ?? "-",
      String(entry.messageCount),
      entry.usage ? String(entry.usage.totalTokens) : "-",
      formatTime(entry.accessedAt),
    ]),
  );
  if (page.nextCursor !== undefined) output.line(`More: --cursor ${page.nextCursor}`);
}

/** `agentcore users usage <userId>`: the user's running totals (since a day with --since). */
export async function showUserUsage(
  { store }: OpenedStore,
  output: Output,
  userId: string,
  options: { since?: string } = {},
): Promise<void> {
  let since: number | undefined;
  if (options.since !== undefined) {
    since = Date.parse(options.since);
    if (Number.isNaN(since)) throw new CliError(`--since: "${options.since}" is not a date (e.g. 2026-12-01)`, 2);
  }
  const usage = await backendOf(store).getUsage({
    userId: checkUserId(userId),
    ...(since === undefined ? {} : { since }),
  });
  if (output.json) return output.data(usage);
  output.table(
    ["input", "output", "cached", "reasoning", "total", "calls", "cost"],
    [
      [
        String(usage.inputTokens),
        String(usage.outputTokens),
        String(usage.cachedInputTokens),
        String(usage.reasoningTokens),
        String(usage.totalTokens),
        String(usage.modelCalls),
        String(usage.cost),
      ],
    ],
  );
}

/**
 * `agentcore users delete <userId> --yes`: deletes every session the user owns, with its messages,
 * summaries and context reports, and the user's facts. Safe to run again after a failure half-way.
 */
export async function deleteUser(
  { store }: OpenedStore,
  output: Output,
  userId: string,
  options: { yes?: boolean } = {},
): Promise<void> {
  checkUserId(userId);
  if (!options.yes)
    throw new CliError(`this deletes every session and fact of user ${userId}: add --yes to go ahead`, 2);
  const deleted = await backendOf(store).deleteUserData(userId);
  if (output.json) return output.data({ userId, ...deleted });
  output.line(
    `Deleted the data of user ${userId}: ${deleted.sessions} session(s), ${deleted.messages} message(s), ${deleted.facts} fact(s).`,
  );
}
