import { InvalidArgumentError } from "../errors/invalid-argument-error";

/**
 * The `limit` of `getMessageTail`, checked the same way by every store: a number that is not
 * negative. Fractions round down; `Infinity` means the whole history.
 */
export function tailLimit(limit: unknown, store: string): number {
  if (typeof limit !== "number" || Number.isNaN(limit) || limit < 0) {
    throw new InvalidArgumentError({
      argument: "limit",
      value: limit,
      message: `${store}.getMessageTail: limit must be a number of messages, 0 or more (got ${typeof limit === "number" ? String(limit) : typeof limit}).`,
    });
  }
  return Math.floor(limit);
}
