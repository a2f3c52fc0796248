import { InvalidArgumentError } from "./invalid-argument-error";

/**
 * Checks an optional whole-number option: `undefined` gives `fallback`; anything else must be an
 * integer of at least `minimum` (1 unless said), or it is an `InvalidArgumentError` naming it.
 */
export function integerOption<Fallback extends number | undefined>(
  value: number | undefined,
  argument: string,
  fallback: Fallback,
  minimum = 1,
): number | Fallback {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) {
    const expected = minimum === 1 ? "a positive integer" : `a whole number of ${minimum} or more`;
    throw new InvalidArgumentError({
      argument,
      value,
      message: `${argument} must be ${expected}, got ${String(value)}.`,
    });
  }
  return value;
}

/** Checks an optional number option: `undefined` gives `fallback`; anything else must be finite and at least 0. */
export function nonNegativeOption(value: number | undefined, argument: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError({ argument, value, message: `${argument} must be a finite number of 0 or more.` });
  }
  return value;
}

/** Checks an optional true/false option: `undefined` gives `fallback`; anything else must be a boolean. */
export function booleanOption(value: boolean | undefined, argument: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== "boolean") {
    throw new InvalidArgumentError({ argument, value, message: `${argument} must be true or false.` });
  }
  return value;
}
