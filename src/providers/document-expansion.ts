import { withoutSpeaker } from "./lexical-scoring";
import { FREQUENCY_SCALE } from "./posting-lists";
import { analyzeText } from "./text-analysis";

/** What a turn borrows from the turn before it (see `expansionWeight`). */
export interface Expansion {
  /** Term → frequency added to the turn's posting, in units of 1 / `FREQUENCY_SCALE`. */
  units: Map<string, number>;
  /** Terms added to the turn's length. */
  length: number;
}

/**
 * The expansion of a turn by the turn before it (`lender`): each of the lender's terms (its
 * speaker prefix left out) at `weight` of an occurrence, at least 1 / `FREQUENCY_SCALE`, and
 * `weight` times the lender's length, rounded. The same content and weight always give the same
 * expansion, so what was added can be taken off again when the lender leaves the index.
 */
export function expansionOf(lender: string, weight: number): Expansion {
  const terms = analyzeText(withoutSpeaker(lender));
  const unit = Math.max(1, Math.round(weight * FREQUENCY_SCALE));
  const units = new Map<string, number>();
  for (const term of terms) units.set(term, (units.get(term) ?? 0) + unit);
  return { units, length: Math.round(weight * terms.length) };
}
