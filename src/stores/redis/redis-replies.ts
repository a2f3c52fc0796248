// The replies of the Redis stores' scripts and commands, checked: a reply of another shape (a
// proxy or REST gateway answering `[]` or `null` with a 200, a truncated pipeline) is an error
// that says what came back and what was expected, never a silent success or a JavaScript
// accident three calls later. The stores turn it into a `StoreError` naming the operation and the
// session. Shared by RedisMemoryStore and UpstashRedisMemoryStore.

/** A reply that is not of the shape its command or script returns. */
export class UnexpectedReplyError extends Error {
  constructor(expected: string, value: unknown) {
    super(
      `the server answered ${describeReply(value)} where ${expected} was expected, so nothing can be assumed stored or read (a write may have landed: retrying it is safe, appends are idempotent by message id)`,
    );
    this.name = "UnexpectedReplyError";
  }
}

/** A short description of a value for an error message (never a whole history). */
export function describeReply(value: unknown): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {}
  text ??= String(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** An integer reply (a number, or its decimal text). */
export function integerReply(value: unknown, what = "an integer"): number {
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) throw new UnexpectedReplyError(what, value);
  return number;
}

/** A list of strings (an empty list may come back as `{}` from cjson). */
export function stringListReply(value: unknown, what = "a list of strings"): string[] {
  if (value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0)
    return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string"))
    throw new UnexpectedReplyError(what, value);
  return value;
}

/** A flat HGETALL reply (field, value, field, value…) as a record. */
export function hashReply(value: unknown, what = "a hash's fields and values"): Record<string, string> {
  const flat = stringListReply(value, what);
  if (flat.length % 2 !== 0) throw new UnexpectedReplyError(what, value);
  const record: Record<string, string> = {};
  for (let index = 0; index < flat.length; index += 2) record[flat[index]!] = flat[index + 1]!;
  return record;
}

/** A list's length and its last items (`{LLEN, LRANGE}` of the tail scripts). */
export function tailReply(value: unknown): { total: number; raw: string[] } {
  const what = "the tail script's {length, messages}";
  if (!Array.isArray(value) || value.length !== 2) throw new UnexpectedReplyError(what, value);
  const total = integerReply(value[0], what);
  const raw = stringListReply(value[1], what);
  if (total < raw.length) throw new UnexpectedReplyError(what, value);
  return { total, raw };
}

/**
 * The append script's reply, `{added, released, spentBy}`: whether it released the lock and the owner
 * whose totals the script could not reach (undefined: none), or "lost" for `{-1, 0, ''}` (the writer's
 * token no longer holds the session's lock: nothing written).
 */
export function appendReply(value: unknown): { released: boolean; spentBy: string | undefined } | "lost" {
  const what = "the append script's {added, released, owner}";
  if (!Array.isArray(value) || value.length !== 3) throw new UnexpectedReplyError(what, value);
  const added = integerReply(value[0], what);
  const released = integerReply(value[1], what);
  if (added === -1 && released === 0) return "lost";
  if (added < 0 || (released !== 0 && released !== 1)) throw new UnexpectedReplyError(what, value);
  return { released: released === 1, spentBy: ownerReply(value[2], what) };
}

/** An owner in a script's reply: a string, '' for none. */
function ownerReply(value: unknown, what: string): string | undefined {
  if (typeof value !== "string") throw new UnexpectedReplyError(what, value);
  return value === "" ? undefined : value;
}

/**
 * The reply of a fenced script that returns 1 once written (replace, touch, summary): "ok", or
 * "lost" for -1 (the writer's token no longer holds the session's lock: nothing written).
 */
export function fencedReply(value: unknown, script: string): "ok" | "lost" {
  const what = `${script}'s 1 or -1`;
  const result = integerReply(value, what);
  if (result === -1) return "lost";
  if (result !== 1) throw new UnexpectedReplyError(what, value);
  return "ok";
}

/** What a cut wrote: the owner whose totals it could not reach, the list's length, and its last messages when the store computes the preview. */
export interface CutOutcome {
  spentBy: string | undefined;
  length: number;
  tail: string[];
}

/** The cut script's reply: `{1, owner, length, tail}`, "lost" for -1 (the lock was lost), "missing" for -2 (no such message): nothing written for either. */
export function cutReply(value: unknown): CutOutcome | "lost" | "missing" {
  const what = "the cut script's {1, owner, length, messages}, -1 or -2";
  if (!Array.isArray(value)) {
    const result = integerReply(value, what);
    if (result === -1) return "lost";
    if (result === -2) return "missing";
    throw new UnexpectedReplyError(what, value);
  }
  if (value.length !== 4 || integerReply(value[0], what) !== 1) throw new UnexpectedReplyError(what, value);
  return {
    spentBy: ownerReply(value[1], what),
    length: integerReply(value[2], what),
    tail: stringListReply(value[3], what),
  };
}

/** The title script's reply: whether it wrote the title and the owner whose totals it could not reach, or "lost" (-1). */
export function titleReply(value: unknown): { written: boolean; spentBy: string | undefined } | "lost" {
  const what = "the title script's {written, owner}";
  if (!Array.isArray(value) || value.length !== 2) throw new UnexpectedReplyError(what, value);
  const written = integerReply(value[0], what);
  if (written === -1) return "lost";
  if (written !== 0 && written !== 1) throw new UnexpectedReplyError(what, value);
  return { written: written === 1, spentBy: ownerReply(value[1], what) };
}

/** The replies of a pipeline of `count` commands: a list of exactly that many. */
export function pipelineReplies(value: unknown, count: number): unknown[] {
  if (!Array.isArray(value) || value.length !== count)
    throw new UnexpectedReplyError(`a list of ${count} replies (one per command of the pipeline)`, value);
  return value;
}
