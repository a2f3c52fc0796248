/**
 * Whether two message contents are the same (a retried request's user message against the stored
 * one): strings by value; parts by their fields, whatever their key order, bytes by value, URLs by
 * address, fields set to `undefined` as if absent. Stored bytes come back as `Uint8Array` where
 * they went in as one, so a retried attachment compares equal.
 */
export function sameContent(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (a instanceof Uint8Array || b instanceof Uint8Array) {
    if (!(a instanceof Uint8Array && b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
    return true;
  }
  if (a instanceof URL || b instanceof URL) return String(a) === String(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!(Array.isArray(a) && Array.isArray(b)) || a.length !== b.length) return false;
    return a.every((item, index) => sameContent(item, b[index]));
  }
  const entries = (value: object) => Object.entries(value).filter(([, field]) => field !== undefined);
  const left = entries(a);
  const right = new Map(entries(b));
  return (
    left.length === right.size && left.every(([key, field]) => right.has(key) && sameContent(field, right.get(key)))
  );
}
