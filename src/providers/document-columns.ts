/**
 * What `InMemorySemanticIndex`'s searches read of every document they visit, by ordinal, in typed
 * arrays: its length in terms and its session and user as interned codes, so a posting is scored
 * and checked against a read's scope without touching the document objects. 12 bytes a document,
 * plus one entry a distinct session or user id (dropped with its last document).
 */
export class DocumentColumns {
  lengths = new Int32Array(0);
  sessions = new Int32Array(0);
  users = new Int32Array(0);
  private readonly codes = new Map<string, { code: number; count: number }>();
  private nextCode = 0;

  /** Records a document at `ordinal` (growing the arrays by doubling). */
  set(ordinal: number, length: number, sessionId: string | undefined, userId: string | undefined): void {
    if (ordinal >= this.lengths.length) this.resize(Math.max(1024, ordinal + 1, this.lengths.length * 2), this.lengths.length);
    this.lengths[ordinal] = length;
    this.sessions[ordinal] = this.intern(sessionId);
    this.users[ordinal] = this.intern(userId);
  }

  /** Forgets the scope of a removed document (its slot stays until `renumber`). */
  release(sessionId: string | undefined, userId: string | undefined): void {
    for (const value of [sessionId, userId]) {
      if (value === undefined) continue;
      const known = this.codes.get(value)!;
      if (--known.count === 0) this.codes.delete(value);
    }
  }

  /**
   * The code to compare a filter's session or user id with: `ANY` when not given, `NONE_MATCH`
   * when no document has it.
   */
  codeOf(value: string | undefined): number {
    if (value === undefined) return ANY;
    return this.codes.get(value)?.code ?? NONE_MATCH;
  }

  /** Moves the slots of the live documents to their new ordinals (`next[old]`, −1 when dead); `count` live. */
  renumber(next: Int32Array, count: number): void {
    const { lengths, sessions, users } = this;
    this.resize(Math.max(1024, count), 0);
    for (let ordinal = 0; ordinal < next.length; ordinal++) {
      const to = next[ordinal]!;
      if (to < 0) continue;
      this.lengths[to] = lengths[ordinal]!;
      this.sessions[to] = sessions[ordinal]!;
      this.users[to] = users[ordinal]!;
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
    const grow = (array: Int32Array) => {
      const grown = new Int32Array(capacity);
      grown.set(array.subarray(0, keep));
      return grown;
    };
    this.lengths = grow(this.lengths);
    this.sessions = grow(this.sessions);
    this.users = grow(this.users);
  }
}

/** Code of a document without that id. */
const UNSET = -1;
/** Filter code: the filter does not constrain this field. */
export const ANY = -2;
/** Filter code: an id no document has. */
export const NONE_MATCH = -3;
