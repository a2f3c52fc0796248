/**
 * The ordinals of the `count` documents to evict, from `entries` (holes are dead documents; no
 * live one sits below `from`). `"oldest"`: the lowest ordinals, which are the first added.
 * `"least-recently-recalled"`: the lowest `used` ticks, oldest first among equals.
 */
export function pickEvictions(
  entries: readonly ({ used: number } | undefined)[],
  from: number,
  count: number,
  policy: "oldest" | "least-recently-recalled",
): number[] {
  const chosen: number[] = [];
  if (policy === "oldest") {
    for (let ordinal = from; chosen.length < count && ordinal < entries.length; ordinal++)
      if (entries[ordinal]) chosen.push(ordinal);
    return chosen;
  }
  const live: number[] = [];
  for (let ordinal = from; ordinal < entries.length; ordinal++) if (entries[ordinal]) live.push(ordinal);
  const used = (ordinal: number) => entries[ordinal]!.used;
  if (count > 16) return live.sort((left, right) => used(left) - used(right) || left - right).slice(0, count);
  // The overflow of one add is a message or two: one pass keeping the `count` best candidates.
  for (const ordinal of live) {
    if (chosen.length < count) {
      chosen.push(ordinal);
      continue;
    }
    let newest = 0;
    for (let index = 1; index < chosen.length; index++)
      if (used(chosen[index]!) > used(chosen[newest]!)) newest = index;
    if (used(ordinal) < used(chosen[newest]!)) chosen[newest] = ordinal;
  }
  return chosen;
}
