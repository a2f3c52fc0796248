// The usage ledger of FileMemoryStore's users: each owner's running totals and totals per UTC day,
// kept in the state beside the sessions (whose own totals are on each session).
import { addTotals, emptyTotals, totalsFrom, utcDay, type UsageTotals } from "../usage-totals";

/** One user's totals: running, and per UTC day (`YYYY-MM-DD`). */
export interface UserLedger {
  total: UsageTotals;
  days: Map<string, UsageTotals>;
}

/** Every owner's totals, by user id. */
export type Ledger = Map<string, UserLedger>;

/** The ledger as the snapshot keeps it (null-prototype objects). */
export type LedgerDocument = Record<string, { total: UsageTotals; days: Record<string, UsageTotals> }>;

/** Adds `usage`, spent at `at` (ms since epoch), to `userId`'s running total and to that UTC day's. */
export function addToLedger(ledger: Ledger, userId: string, usage: UsageTotals, at: number): void {
  let user = ledger.get(userId);
  if (!user) ledger.set(userId, (user = { total: emptyTotals(), days: new Map() }));
  user.total = addTotals(user.total, usage);
  const day = utcDay(at);
  user.days.set(day, addTotals(user.days.get(day) ?? emptyTotals(), usage));
}

/** A user's running totals, or the sum of their days from `since`'s UTC day on (zeros for an unknown user). */
export function ledgerUsage(ledger: Ledger, userId: string, since: number | undefined): UsageTotals {
  const user = ledger.get(userId);
  if (!user) return emptyTotals();
  if (since === undefined) return { ...user.total };
  const first = utcDay(since);
  let sum = emptyTotals();
  for (const [day, totals] of user.days) if (day >= first) sum = addTotals(sum, totals);
  return sum;
}

/** The ledger of a snapshot (absent in snapshots written before it existed: empty). */
export function parseLedger(value: unknown): Ledger {
  const ledger: Ledger = new Map();
  if (!isRecord(value)) return ledger;
  for (const [userId, user] of Object.entries(value)) {
    if (!isRecord(user)) throw new Error(`the usage of user ${JSON.stringify(userId)} is not an object`);
    const days = new Map<string, UsageTotals>();
    for (const [day, totals] of Object.entries(isRecord(user.days) ? user.days : {})) days.set(day, totalsOf(totals));
    ledger.set(userId, { total: totalsOf(user.total), days });
  }
  return ledger;
}

/** The ledger's snapshot form. */
export function serializeLedger(ledger: Ledger): LedgerDocument {
  const document: LedgerDocument = Object.create(null);
  for (const [userId, user] of ledger) {
    const days: Record<string, UsageTotals> = Object.create(null);
    for (const [day, totals] of user.days) days[day] = totals;
    document[userId] = { total: user.total, days };
  }
  return document;
}

/** Totals read from a stored object (absent fields 0). */
export function totalsOf(value: unknown): UsageTotals {
  const record = isRecord(value) ? value : {};
  return totalsFrom((field) => record[field]);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
