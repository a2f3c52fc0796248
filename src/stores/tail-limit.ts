import { InvalidArgumentError } from "../errors/invalid-argument-error";

/**
 * The `limit` of `getMessageTail`, checked the same way by every store: a
 * number that is not negative. Fractions round down; `Infinity`, and any limit past 2^53 (which no
 * session reaches), come back as `Infinity`, meaning the whole history, so a store never sends a
 * limit like `1e+21` to its database.
 */
export function tailLimit(limit: unknown, store: string, method = "getMessageTail"): number {
  if (typeof limit !== "number" || Number.isNaN(limit) || limit < 0) {
    throw new InvalidArgumentError({
      argument: "limit",
      value: limit,
      message: `${store}.${method}: limit must be a number of messages, 0 or more (got ${typeof limit === "number" ? String(limit) : typeof limit}).`,
    });
  }
  const count = Math.floor(limit);
  return Number.isSafeInteger(count) ? count : Infinity;
}

/**
 * The `start` and `end` of `getMessageRange`, checked the same way by every store: integers,
 * 0 ≤ start ≤ end (`end` may be `Infinity`: to the end of the session). Returns `end` capped at
 * 2^53 - 1, so no store sends `Infinity` to its database.
 */
export function messageRange(start: unknown, end: unknown, store: string): { start: number; end: number } {
  const integer = (value: unknown) =>
    typeof value === "number" && (Number.isSafeInteger(value) || value === Infinity) && value >= 0;
  if (!integer(start) || start === Infinity || !integer(end) || (end as number) < (start as number)) {
    throw new InvalidArgumentError({
      argument: "range",
      value: { start, end },
      message: `${store}.getMessageRange: start and end must be positions with 0 ≤ start ≤ end (got ${String(start)} and ${String(end)}).`,
    });
  }
  return { start: start as number, end: Math.min(end as number, Number.MAX_SAFE_INTEGER) };
}
