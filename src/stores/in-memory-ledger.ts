// The in-memory store's per-user usage totals (the usage ledger, docs/threads.md): a running total
// and one total per UTC day, so a user's spend since a day sums days, never sessions.
import { addTotals, emptyTotals, utcDay, type UsageTotals } from "./usage-totals";

interface UserTotals {
  total: UsageTotals;
  /** `utcDay` → what was spent that day. */
  days: Map<string, UsageTotals>;
}

/** Every user's running and daily totals, kept in this process. */
export class InMemoryUserLedger {
  private readonly users = new Map<string, UserTotals>();

  /** Adds `usage` to the user's running total and to the total of the UTC day holding `now`. */
  add(userId: string, usage: UsageTotals, now: number): void {
    let totals = this.users.get(userId);
    if (!totals) this.users.set(userId, (totals = { total: emptyTotals(), days: new Map() }));
    totals.total = addTotals(totals.total, usage);
    const day = utcDay(now);
    totals.days.set(day, addTotals(totals.days.get(day) ?? emptyTotals(), usage));
  }

  /** The user's running total, or the sum of their days from the UTC day holding `since`. */
  read(userId: string, since: number | undefined): UsageTotals {
    const totals = this.users.get(userId);
    if (!totals) return emptyTotals();
    if (since === undefined) return { ...totals.total };
    // Past the range of a Date (±8.64e15 ms): after every day, or before every one.
    const from = Math.abs(since) > 8.64e15 ? (since > 0 ? "~" : "") : utcDay(since);
    let sum = emptyTotals();
    for (const [day, spent] of totals.days) if (day >= from) sum = addTotals(sum, spent);
    return sum;
  }

  /** Forgets the user's totals (`deleteUserData`). */
  forget(userId: string): void {
    this.users.delete(userId);
  }
}
