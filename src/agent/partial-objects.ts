import type { AgentStreamPart } from "./agent-result";
import { MAX_OUTPUT_DEPTH } from "./output-spec";
import { PartialJsonParser } from "./partial-json-parser";

/**
 * A partial copies its open objects and arrays (the closed ones are shared): it is given only
 * when that copy costs at most this many entries per character read since the last partial, so
 * reading a wide object stays linear in its length (a 10,000-entry list still open is copied
 * about once per 600 characters; an object of under 64 open entries at every change of 4-character deltas).
 */
const COPIES_PER_CHARACTER = 16;

/**
 * A reader's pick for `partialObjectStream`: the JSON text of the current model call read piece
 * by piece (`PartialJsonParser`), the object so far given when it changed and its copy is due,
 * and always at the end of the call (`step-finish`, `object-retry`, `step-start`, `finish`), so
 * the last partial of a reply is all of it. Starts over at each step and at a retry. A reply
 * that is not JSON, or nests deeper than `MAX_OUTPUT_DEPTH`, gives no more partials.
 */
export function partialObjects(): (part: AgentStreamPart) => object | undefined {
  let parser = new PartialJsonParser({ maxDepth: MAX_OUTPUT_DEPTH });
  /** Characters written since the last partial. */
  let unread = 0;
  const take = (due: boolean): object | undefined => {
    if (!parser.mayHaveChanged) return undefined;
    if (!due && parser.readCost > COPIES_PER_CHARACTER * unread) return undefined;
    unread = 0;
    const value = parser.read();
    return value !== null && typeof value === "object" ? value : undefined;
  };
  return (part) => {
    switch (part.type) {
      case "text-delta":
        parser.write(part.delta);
        unread += part.delta.length;
        return take(false);
      case "step-finish":
      case "finish":
        return take(true);
      case "step-start":
      case "object-retry": {
        const last = take(true);
        parser = new PartialJsonParser({ maxDepth: MAX_OUTPUT_DEPTH });
        unread = 0;
        return last;
      }
      default:
        return undefined;
    }
  };
}
