import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { SummaryReadOptions } from "./memory-store";

/**
 * How many of the newest summaries `getSummaries(sessionId, options)` returns, checked the same
 * way by every store: `Infinity` (all) without `last`, otherwise a number that is not negative,
 * rounded down (past 2^53: all).
 */
export function summaryCount(options: unknown, store: string): number {
  if (options === undefined) return Infinity;
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new InvalidArgumentError({
      argument: "options",
      value: options,
      message: `${store}.getSummaries: options must be an object such as { last: 4 } (got ${options === null ? "null" : Array.isArray(options) ? "an array" : typeof options}).`,
    });
  }
  const last = (options as SummaryReadOptions).last;
  if (last === undefined) return Infinity;
  if (typeof last !== "number" || Number.isNaN(last) || last < 0) {
    throw new InvalidArgumentError({
      argument: "last",
      value: last,
      message: `${store}.getSummaries: last must be a number of summaries, 0 or more (got ${typeof last === "number" ? String(last) : typeof last}).`,
    });
  }
  const count = Math.floor(last);
  return Number.isSafeInteger(count) ? count : Infinity;
}

/** The newest `count` of `records` (all of them for `Infinity`), oldest first. */
export function newestSummaries<T>(records: readonly T[], count: number): T[] {
  if (count >= records.length) return [...records];
  return count === 0 ? [] : records.slice(records.length - count);
}
