/**
 * The inverted index of `InMemorySemanticIndex`: each term's postings in one `Int32Array`,
 * [ordinal, term frequency, …] with ordinals ascending, grown by doubling (so at most half of a
 * list's capacity is unused; `compact` trims it). 8 bytes a posting against 16 in a JS array of
 * numbers, and a search walks a flat typed array.
 */
export interface PostingList {
  /** The term (the map's own key string, shared). */
  term: string;
  /** [ordinal, term frequency, …]; only the first `used` values are postings. */
  data: Int32Array;
  used: number;
  /** Largest term frequency and smallest document length among the postings (dead ones included): the bound of its BM25 saturation. */
  maxFrequency: number;
  minLength: number;
  /** Live documents holding the term (its document frequency); the owner counts them. */
  documents: number;
}

export class PostingLists {
  private lists = new Map<string, PostingList>();

  get(term: string): PostingList | undefined {
    return this.lists.get(term);
  }

  /** Appends a posting (ordinals arrive ascending) and returns its list, which stays the term's list until it empties. */
  add(term: string, ordinal: number, frequency: number, length: number): PostingList {
    let list = this.lists.get(term);
    if (!list)
      this.lists.set(
        term,
        (list = { term, data: new Int32Array(2), used: 0, maxFrequency: 0, minLength: Infinity, documents: 0 }),
      );
    if (list.used === list.data.length) {
      const grown = new Int32Array(list.data.length * 2);
      grown.set(list.data);
      list.data = grown;
    }
    list.data[list.used++] = ordinal;
    list.data[list.used++] = frequency;
    if (frequency > list.maxFrequency) list.maxFrequency = frequency;
    if (length < list.minLength) list.minLength = length;
    return list;
  }

  /**
   * Rewrites every list in place with each ordinal mapped (dropped when mapped below 0), exactly
   * sized, bounds recomputed; a list left empty is forgotten.
   */
  rebuild(map: (ordinal: number) => number, lengthOf: (ordinal: number) => number): void {
    for (const [term, list] of this.lists) {
      const { data, used } = list;
      let kept = 0;
      for (let index = 0; index < used; index += 2) if (map(data[index]!) >= 0) kept += 2;
      if (kept === 0) {
        this.lists.delete(term);
        continue;
      }
      list.data = new Int32Array(kept);
      list.used = 0;
      list.maxFrequency = 0;
      list.minLength = Infinity;
      for (let index = 0; index < used; index += 2) {
        const ordinal = map(data[index]!);
        if (ordinal < 0) continue;
        list.data[list.used++] = ordinal;
        list.data[list.used++] = data[index + 1]!;
        list.maxFrequency = Math.max(list.maxFrequency, data[index + 1]!);
        list.minLength = Math.min(list.minLength, lengthOf(data[index]!));
      }
    }
  }
}

/** First pair position at or after `from` whose ordinal is at least `target` (galloping, then binary search). */
export function seek(list: Int32Array, from: number, target: number): number {
  if (from >= list.length || list[from]! >= target) return from;
  let low = from; // list[low] < target
  let step = 2;
  let high = from + step;
  while (high < list.length && list[high]! < target) {
    low = high;
    step *= 2;
    high = low + step;
  }
  high = Math.min(high, list.length);
  // Invariant: list[low] < target; list[high] >= target or high = length; both even.
  while (high - low > 2) {
    const middle = low + (((high - low) >> 2) << 1);
    if (list[middle]! < target) low = middle;
    else high = middle;
  }
  return high;
}
