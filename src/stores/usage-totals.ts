// A session's and a user's running token totals (the usage ledger, docs/threads.md): the shape
// stores keep and the arithmetic every store shares.
import { InvalidArgumentError } from "../errors/invalid-argument-error";

/** Running totals of what model calls spent: a session's, or a user's across their sessions. */
export interface UsageTotals {
  /** Every input token, cached or not. */
  inputTokens: number;
  outputTokens: number;
  /** Input tokens read from a provider's prompt cache (counted in `inputTokens` too). */
  cachedInputTokens: number;
  /** Output tokens spent on reasoning (counted in `outputTokens` too), where the provider says. */
  reasoningTokens: number;
  totalTokens: number;
  /** Model calls made (answers, summaries, titles, structured-output retries). */
  modelCalls: number;
  /** What the calls cost, in the currency of the agent's `pricing` (0 without pricing). */
  cost: number;
}

/** Which totals `getUsage` reads. */
export type UsageQuery =
  | { sessionId: string }
  | {
      userId: string;
      /**
       * Only what was spent since this moment (ms since epoch), counted in whole UTC days: from the
       * start of the UTC day holding `since`. Omitted: everything the user's sessions ever spent.
       */
      since?: number;
    };

/** How many of a user's things `deleteUserData` deleted (0 each on a retry that found nothing left). */
export interface UserDataDeletion {
  sessions: number;
  messages: number;
  /** Facts of the user's scope (`user:<id>`) and of their sessions' scopes. */
  facts: number;
}

/** The options of an append (`MemoryStore.appendMessages`). */
export interface AppendOptions {
  /**
   * What the model calls of this turn spent since the turn's previous append: added to the
   * session's and its owner's totals in the same atomic write as the messages, and only when the
   * write stored at least one new message (a retried append adds nothing twice).
   */
  usage?: UsageTotals;
}

const FIELDS = [
  "inputTokens",
  "outputTokens",
  "cachedInputTokens",
  "reasoningTokens",
  "totalTokens",
  "modelCalls",
  "cost",
] as const satisfies readonly (keyof UsageTotals)[];

/** The field names of `UsageTotals`, in a fixed order (for stores that keep them as columns or hash fields). */
export const USAGE_FIELDS: readonly (keyof UsageTotals)[] = FIELDS;

/** Totals of nothing spent. */
export function emptyTotals(): UsageTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    reasoningTokens: 0,
    totalTokens: 0,
    modelCalls: 0,
    cost: 0,
  };
}

/** `a + b`, field by field. */
export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  const sum = emptyTotals();
  for (const field of FIELDS) sum[field] = a[field] + b[field];
  return sum;
}

/** Whether the totals are all 0 (nothing to record). */
export function isEmptyTotals(totals: UsageTotals): boolean {
  return FIELDS.every((field) => totals[field] === 0);
}

/** Totals read back from a store's fields (absent or unparsable fields are 0). */
export function totalsFrom(read: (field: keyof UsageTotals) => unknown): UsageTotals {
  const totals = emptyTotals();
  for (const field of FIELDS) {
    const value = Number(read(field) ?? 0);
    totals[field] = Number.isFinite(value) ? value : 0;
  }
  return totals;
}

/** Refuses usage that is not `UsageTotals` of finite numbers ≥ 0 (an `InvalidArgumentError` naming the field). */
export function checkUsage(usage: unknown, where: string): asserts usage is UsageTotals {
  if (usage === null || typeof usage !== "object")
    throw new InvalidArgumentError({
      argument: "usage",
      message: `${where}: usage must be an object of token totals.`,
    });
  for (const field of FIELDS) {
    const value = (usage as Record<string, unknown>)[field];
    if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
      throw new InvalidArgumentError({
        argument: `usage.${field}`,
        message: `${where}: usage.${field} must be a finite number ≥ 0 (got ${String(value)}).`,
      });
  }
}

/** The UTC day holding `ms`, as `YYYY-MM-DD` (the key of a user's daily totals). */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Refuses a `UsageQuery` that names neither a session nor a user, or a bad `since`. */
export function checkUsageQuery(query: unknown): asserts query is UsageQuery {
  const record = (query ?? {}) as Record<string, unknown>;
  const hasSession = typeof record.sessionId === "string" && record.sessionId !== "";
  const hasUser = typeof record.userId === "string" && record.userId !== "";
  if (hasSession === hasUser)
    throw new InvalidArgumentError({
      argument: "query",
      message: "getUsage takes { sessionId } or { userId, since? }: exactly one of the two, a non-empty string.",
    });
  if (record.since !== undefined && (typeof record.since !== "number" || !Number.isFinite(record.since)))
    throw new InvalidArgumentError({ argument: "since", message: "getUsage: since must be a time in ms since epoch." });
}
