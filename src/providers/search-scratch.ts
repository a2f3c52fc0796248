import { ANY, type DocumentColumns } from "./document-columns";
import { matchesFilter, type SemanticDocument, type SemanticFilter } from "./semantic-index";

/**
 * Scratch arrays of `InMemorySemanticIndex`'s lexical search, indexed by ordinal, reused between
 * searches (a search never awaits, so searches cannot interleave) and reset through the list of
 * what was touched: the search writes only at ordinals it first checked against the filter.
 */
export class SearchScratch {
  own = new Float64Array(0);
  matched = new Float64Array(0);
  flags = new Uint8Array(0);
  /** 0 unknown, 1 passes the filter, 2 does not. */
  private seen = new Uint8Array(0);
  /** Ordinals the search under way checked against its filter. */
  private checked: number[] = [];

  /**
   * Readies the arrays for a search of `entries` (holes are dead documents) and returns its
   * filter: whether the document at an ordinal is live and passes `filter`, checked once a search.
   * `window`, when given, marks (1) the ordinals whose time meets the filter's `after`/`before`.
   */
  begin(
    entries: readonly ({ document: SemanticDocument } | undefined)[],
    columns: DocumentColumns,
    filter: SemanticFilter,
    window?: Uint8Array,
  ): (ordinal: number) => boolean {
    const size = entries.length;
    if (this.own.length < size) {
      const capacity = Math.max(size, this.own.length * 2, 1024);
      this.own = new Float64Array(capacity);
      this.matched = new Float64Array(capacity);
      this.seen = new Uint8Array(capacity);
      this.flags = new Uint8Array(capacity);
    }
    const seen = this.seen;
    const checked: number[] = [];
    this.checked = checked;
    // The scope compared as interned codes; only tags need the document itself.
    const { sessions, users } = columns;
    const session = columns.codeOf(filter.sessionId);
    const user = columns.codeOf(filter.userId);
    // Tags need the document itself, and so does a time window unless `window` marks the ordinals in it.
    const byDocument =
      (filter.tags?.length ?? 0) > 0 || (!window && (filter.after !== undefined || filter.before !== undefined));
    const documentFilter = window ? { tags: filter.tags } : filter;
    return (ordinal: number) => {
      if (seen[ordinal] === 0) {
        const entry = entries[ordinal];
        const inScope =
          entry !== undefined &&
          (session === ANY || sessions[ordinal] === session) &&
          (user === ANY || users[ordinal] === user) &&
          (!window || window[ordinal] === 1);
        seen[ordinal] = inScope && (!byDocument || matchesFilter(entry.document, documentFilter)) ? 1 : 2;
        checked.push(ordinal);
      }
      return seen[ordinal] === 1;
    };
  }

  /** Zeroes what the search touched, for the next one. */
  end(): void {
    for (const ordinal of this.checked) {
      this.seen[ordinal] = 0;
      this.own[ordinal] = 0;
      this.matched[ordinal] = 0;
      this.flags[ordinal] = 0;
    }
    this.checked = [];
  }

  /** Drops the arrays (the ordinals were renumbered); the next search allocates them again. */
  clear(): void {
    this.own = new Float64Array(0);
    this.seen = new Uint8Array(0);
    this.matched = new Float64Array(0);
    this.flags = new Uint8Array(0);
  }
}
