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
