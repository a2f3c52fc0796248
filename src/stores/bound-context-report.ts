import { type ContextReport, MAX_CONTEXT_REPORT_BYTES } from "./context-report";

const encoder = new TextEncoder();
const bytesOf = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/**
 * A report whose JSON is at most `maxBytes`: returned as it is when it fits, else with its lists
 * cut to what fits (the facts and recalled memories first, then the newest window ids with half
 * of the room left, the newest left-out entries, and the window again with what remains), their
 * full counts in `windowCount`, `leftOutCount`, `factCount`, `recalledCount`, and `truncated: true`.
 */
export function boundContextReport(report: ContextReport, maxBytes = MAX_CONTEXT_REPORT_BYTES): ContextReport {
  if (bytesOf(report) <= maxBytes) return report;
  const bounded: ContextReport = {
    ...report,
    window: [],
    leftOut: [],
    facts: [],
    recalled: [],
    truncated: true,
    windowCount: report.window.length,
    leftOutCount: report.leftOut.length,
    factCount: report.facts.length,
    recalledCount: report.recalled.length,
  };
  let room = maxBytes - bytesOf(bounded);
  /** Takes items (from the start, or the newest from the end) while they fit in `limit` bytes of the room. */
  const take = <T>(items: readonly T[], fromEnd: boolean, limit = room): T[] => {
    const kept: T[] = [];
    let used = 0;
    for (let index = 0; index < items.length; index++) {
      const item = items[fromEnd ? items.length - 1 - index : index]!;
      const size = bytesOf(item) + 1; // and its comma
      if (used + size > limit) break;
      used += size;
      kept.push(item);
    }
    room -= used;
    return fromEnd ? kept.reverse() : kept;
  };
  bounded.facts = take(report.facts, false);
  bounded.recalled = take(report.recalled, false);
  const newest = take(report.window, true, Math.floor(room / 2));
  bounded.leftOut = take(report.leftOut, true);
  bounded.window = [...take(report.window.slice(0, report.window.length - newest.length), true), ...newest];
  return bounded;
}
