import { NO_NEIGHBOUR } from "./lexical-scoring";

/** What `InMemorySemanticIndex` records of a document in its columns. */
export interface ColumnValues {
  length: number;
  sessionId: string | undefined;
  userId: string | undefined;
  asks: boolean;
  speaker: string | undefined;
  /** Mentions a time (see `mentionsTime`), so it is boosted when a query asks when. */
  dated: boolean;
}

/**
 * What `InMemorySemanticIndex`'s searches read of every document they visit, by ordinal, in typed
 * arrays: its length in terms, its session and user as interned codes, its neighbouring turns of
 * the session, whether it asks a question, whether it mentions a time and its speaker's code. A posting is scored, checked
 * against a read's scope and lent to its neighbours without touching the document objects.
 * 22 bytes a document slot (capacity grows by doubling; `renumber` shrinks it to the live
 * documents), plus one intern entry a distinct session id, user id or speaker (dropped with its
 * last document).
 */
export class DocumentColumns {
  lengths = new Int32Array(0);
  sessions = new Int32Array(0);
  users = new Int32Array(0);
  speakers = new Int32Array(0);
  previous = new Int32Array(0);
  next = new Int32Array(0);
  asks = new Uint8Array(0);
  dated = new Uint8Array(0);
  private readonly codes = new Map<string, { code: number; count: number }>();
  private nextCode = 0;

  /** Records a document at `ordinal`, not linked to any neighbour yet. */
  set(ordinal: number, values: ColumnValues): void {
    if (ordinal >= this.lengths.length)
      this.resize(Math.max(1024, ordinal + 1, this.lengths.length * 2), this.lengths.length);
    this.lengths[ordinal] = values.length;
    this.sessions[ordinal] = this.intern(values.sessionId);
    this.users[ordinal] = this.intern(values.userId);
    this.speakers[ordinal] = this.intern(values.speaker);
    this.asks[ordinal] = values.asks ? 1 : 0;
    this.dated[ordinal] = values.dated ? 1 : 0;
    this.previous[ordinal] = NO_NEIGHBOUR;
    this.next[ordinal] = NO_NEIGHBOUR;
  }

  /** Forgets the ids of a removed document (its slot stays until `renumber`). */
  release(values: Pick<ColumnValues, "sessionId" | "userId" | "speaker">): void {
    for (const value of [values.sessionId, values.userId, values.speaker]) {
      if (value === undefined) continue;
      const known = this.codes.get(value)!;
      if (--known.count === 0) this.codes.delete(value);
    }
  }

  /** The code to compare a column with: `ANY` for undefined (no constraint), `NONE_MATCH` when no document has it. */
  codeOf(value: string | undefined): number {
    if (value === undefined) return ANY;
    return this.codes.get(value)?.code ?? NONE_MATCH;
  }

  /** Moves the live documents to their new ordinals (`moved[old]`, −1 when dead; `count` live), links renumbered. */
  renumber(moved: Int32Array, count: number): void {
    const { lengths, sessions, users, speakers, previous, next, asks, dated } = this;
    this.resize(Math.max(1024, count), 0);
    const link = (ordinal: number) => (ordinal === NO_NEIGHBOUR ? NO_NEIGHBOUR : moved[ordinal]!);
    for (let ordinal = 0; ordinal < moved.length; ordinal++) {
      const to = moved[ordinal]!;
      if (to < 0) continue;
      this.lengths[to] = lengths[ordinal]!;
      this.sessions[to] = sessions[ordinal]!;
      this.users[to] = users[ordinal]!;
      this.speakers[to] = speakers[ordinal]!;
      this.asks[to] = asks[ordinal]!;
      this.dated[to] = dated[ordinal]!;
      this.previous[to] = link(previous[ordinal]!);
      this.next[to] = link(next[ordinal]!);
    }
  }

  private intern(value: string | undefined): number {
    if (value === undefined) return UNSET;
    const known = this.codes.get(value);
    if (known) {
      known.count++;
      return known.code;
    }
    const code = this.nextCode++;
    this.codes.set(value, { code, count: 1 });
    return code;
  }

  private resize(capacity: number, keep: number): void {
    const grow = <T extends Int32Array | Uint8Array>(array: T, empty: T): T => {
      empty.set(array.subarray(0, keep));
      return empty;
    };
    this.lengths = grow(this.lengths, new Int32Array(capacity));
    this.sessions = grow(this.sessions, new Int32Array(capacity));
    this.users = grow(this.users, new Int32Array(capacity));
    this.speakers = grow(this.speakers, new Int32Array(capacity));
    this.previous = grow(this.previous, new Int32Array(capacity));
    this.next = grow(this.next, new Int32Array(capacity));
    this.asks = grow(this.asks, new Uint8Array(capacity));
    this.dated = grow(this.dated, new Uint8Array(capacity));
  }
}

/** Code of a document without that id. */
const UNSET = -1;
/** Filter code: the filter does not constrain this column. */
export const ANY = -2;
/** Filter code: an id no document has. */
export const NONE_MATCH = -3;
