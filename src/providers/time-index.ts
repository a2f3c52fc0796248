const DAY = 86_400_000;
/**
 * Longest span of each class: class 0 holds points (a memory's own time), the others the times it
 * mentions, by length (a day, a week, a month, a season, a year, four years, longer). A window
 * looks into each class from its start less the class's longest span, so a few long mentions
 * ("for three years") never make a day-long window walk the spans of every day.
 */
const CLASS_LONGEST = [0, DAY, 7 * DAY, 32 * DAY, 93 * DAY, 367 * DAY, 1462 * DAY, Infinity];

/** One class's spans, sorted by start, in parallel typed arrays (20 bytes a span). */
class SortedSpans {
  starts = new Float64Array(0);
  ends = new Float64Array(0);
  ordinals = new Int32Array(0);
  count = 0;
  /** Longest span held (for the open-ended last class; the others are bounded by their class). */
  longest = 0;

  insert(start: number, end: number, ordinal: number): void {
    if (this.count === this.starts.length) this.resize(Math.max(64, this.count * 2));
    // Past every span starting at or before `start`: spans mostly arrive in time order, so this is the end.
    let at = this.count;
    if (at > 0 && this.starts[at - 1]! > start) at = firstAbove(this.starts, this.count, start);
    if (at < this.count) {
      this.starts.copyWithin(at + 1, at, this.count);
      this.ends.copyWithin(at + 1, at, this.count);
      this.ordinals.copyWithin(at + 1, at, this.count);
    }
    this.starts[at] = start;
    this.ends[at] = end;
    this.ordinals[at] = ordinal;
    this.count++;
    this.longest = Math.max(this.longest, end - start);
  }

  /** Keeps the spans whose ordinal `map` gives (≥ 0), renumbered, in the same order. */
  rebuild(map: (ordinal: number) => number): void {
    let kept = 0;
    this.longest = 0;
    for (let index = 0; index < this.count; index++) {
      const ordinal = map(this.ordinals[index]!);
      if (ordinal < 0) continue;
      this.starts[kept] = this.starts[index]!;
      this.ends[kept] = this.ends[index]!;
      this.ordinals[kept] = ordinal;
      this.longest = Math.max(this.longest, this.ends[kept]! - this.starts[kept]!);
      kept++;
    }
    this.count = kept;
    if (this.starts.length > 64 && kept < this.starts.length / 4) this.resize(Math.max(64, kept * 2));
  }

  private resize(capacity: number): void {
    const keep = Math.min(this.count, capacity);
    const starts = new Float64Array(capacity);
    const ends = new Float64Array(capacity);
    const ordinals = new Int32Array(capacity);
    starts.set(this.starts.subarray(0, keep));
    ends.set(this.ends.subarray(0, keep));
    ordinals.set(this.ordinals.subarray(0, keep));
    [this.starts, this.ends, this.ordinals] = [starts, ends, ordinals];
  }
}

/** First index in `values[0..count)` (ascending) whose value is above `value`. */
function firstAbove(values: Float64Array, count: number, value: number): number {
  let [low, high] = [0, count];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! > value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** First index in `values[0..count)` (ascending) whose value is at least `value`. */
function firstFrom(values: Float64Array, count: number, value: number): number {
  let [low, high] = [0, count];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (values[middle]! >= value) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The time lookup of `InMemorySemanticIndex`: each document's own time (`createdAt`) and the
 * times it mentions (`mentions`), sorted by start in typed arrays, so a window [after, before)
 * finds the documents `inWindow` passes by binary search, touching only the spans near it.
 * Removal is lazy (the owner skips dead ordinals and calls `rebuild` when it compacts); about
 * 20 bytes a span.
 */
export class TimeIndex {
  private readonly classes = CLASS_LONGEST.map(() => new SortedSpans());
  private live = 0;
  private dead = 0;

  /** Records a document's own time and the [start, end) pairs it mentions. */
  add(ordinal: number, createdAt: number, mentions: readonly number[] | undefined): void {
    this.classes[0]!.insert(createdAt, createdAt, ordinal);
    let spans = 1;
    if (mentions) {
      for (let index = 0; index + 1 < mentions.length; index += 2) {
        const [start, end] = [mentions[index]!, mentions[index + 1]!];
        const length = end - start;
        let which = 1;
        while (CLASS_LONGEST[which]! < length) which++;
        this.classes[which]!.insert(start, end, ordinal);
        spans++;
      }
    }
    this.live += spans;
  }

  /** Counts a removed document's spans as dead (they stay until `rebuild`). */
  remove(mentions: readonly number[] | undefined): void {
    const spans = 1 + Math.floor((mentions?.length ?? 0) / 2);
    this.live -= spans;
    this.dead += spans;
  }

  /** Most of the spans are dead: worth a `rebuild`. */
  get sparse(): boolean {
    return this.dead >= 1024 && this.dead > this.live;
  }

  /**
   * Ordinals (dead ones included, in no order, possibly repeated) of the documents whose own time
   * is in [after, before) or a mentioned span overlaps it; `undefined` once more than `most` spans
   * match (a wide window: scanning is as cheap).
   */
  find(after: number, before: number, most: number): number[] | undefined {
    const found: number[] = [];
    if (!(after < before)) return found;
    for (let which = 0; which < this.classes.length; which++) {
      const spans = this.classes[which]!;
      if (spans.count === 0) continue;
      const { starts, ends, ordinals, count } = spans;
      const reach = which === 0 ? 0 : Math.min(CLASS_LONGEST[which]!, spans.longest);
      // Points are in the window when after ≤ time < before; spans when start < before and end > after.
      let index = which === 0 ? firstFrom(starts, count, after) : firstAbove(starts, count, after - reach);
      for (; index < count && starts[index]! < before; index++) {
        if (which !== 0 && !(ends[index]! > after)) continue;
        if (found.length === most) return undefined;
        found.push(ordinals[index]!);
      }
    }
    return found;
  }

  /**
   * The distinct ordinals (dead ones included, in no order) of `find(after, before, most)`, each
   * marked (1) in `marks` (one slot an ordinal below `size`); `undefined` as `find`.
   */
  within(
    window: { after?: number | undefined; before?: number | undefined },
    size: number,
    most: number,
  ): { ordinals: number[]; marks: Uint8Array } | undefined {
    const found = this.find(window.after ?? -Infinity, window.before ?? Infinity, most);
    if (!found) return undefined;
    const marks = new Uint8Array(size);
    const ordinals: number[] = [];
    for (const ordinal of found) {
      if (marks[ordinal] === 1) continue;
      marks[ordinal] = 1;
      ordinals.push(ordinal);
    }
    return { ordinals, marks };
  }

  /** Keeps the spans of the ordinals `map` gives (≥ 0), renumbered; drops the others. */
  rebuild(map: (ordinal: number) => number): void {
    for (const spans of this.classes) spans.rebuild(map);
    this.live = this.classes.reduce((sum, spans) => sum + spans.count, 0);
    this.dead = 0;
  }
}
