// The usage ledger and the preview of the Redis stores (docs/threads.md): what rides in a session's
// write scripts (the append, the cut, the generated title) as extra ARGV, and the user's totals.
//
// A session's totals are fields of its meta hash (`usage.<field>`, its slot). A user's are two
// hashes in the user's slot, beside their session index (`<prefix>user:{<e>}:sessions`):
// `<prefix>user:{<e>}:usage` (field → running total) and `<prefix>user:{<e>}:usage-by-day`
// (`YYYY-MM-DD:<field>` → that UTC day's total). On a single Redis and on Upstash, when the store
// knows the session's owner (it claimed the session, or a script told it), it passes their two keys as
// KEYS[7] and KEYS[8] and the session's script adds to them itself, in the same atomic step, after
// checking the meta's owner is the one they belong to. On a Cluster (another slot), or when the owner
// is not known there, the script returns the owner and the store adds to their totals right after
// (`addUserUsage`): an ordered write, not atomic with the script.
import { checkUsage, emptyTotals, totalsFrom, USAGE_FIELDS, utcDay, type UsageTotals } from "../usage-totals";
import { hashReply } from "./redis-replies";
import type { RedisTransport } from "./redis-transport";

/** How many ARGV the ledger takes in a script (`ledgerArguments`): the preview, the day, the 7 totals, the owner. */
export const LEDGER_ARGUMENTS = 3 + USAGE_FIELDS.length;

/** The meta hash field of a session's total of `field`. */
export const usageField = (field: string) => `usage.${field}`;

const luaFields = `{${USAGE_FIELDS.map((field) => `'${field}'`).join(", ")}}`;

/**
 * Lua: records the ledger given at ARGV[at] … (see `ledgerArguments`) when `condition` holds
 * (`KEYS[3]`: the meta hash): the preview set (when one is given) and the usage added to the
 * session's totals and, when KEYS[7] and KEYS[8] are the totals of the meta's owner (the owner
 * ARGV names), to the owner's running and daily totals. Leaves in `spentBy` the owner whose totals
 * it did not reach ('' when none).
 */
export function ledgerLua(at: number, condition: string): string {
  const day = at + 1;
  const named = at + 2 + USAGE_FIELDS.length;
  return `
local spentBy = ''
if ${condition} then
  if ARGV[${at}] ~= '' then redis.call('HSET', KEYS[3], 'preview', ARGV[${at}]) end
  if ARGV[${day}] ~= '' then
    local fields = ${luaFields}
    local owner = redis.call('HGET', KEYS[3], 'userId')
    local reached = owner and KEYS[8] and owner == ARGV[${named}]
    if owner and not reached then spentBy = owner end
    for i = 1, ${USAGE_FIELDS.length} do
      local amount = ARGV[${day} + i]
      if tonumber(amount) ~= 0 then
        redis.call('HINCRBYFLOAT', KEYS[3], 'usage.' .. fields[i], amount)
        if reached then
          redis.call('HINCRBYFLOAT', KEYS[7], fields[i], amount)
          redis.call('HINCRBYFLOAT', KEYS[8], ARGV[${day}] .. ':' .. fields[i], amount)
        end
      end
    end
  end
end
`;
}

/**
 * The ledger's ARGV: the preview ('' = keep the one stored), the UTC day of `now` ('' = no usage),
 * the 7 totals (checked with `checkUsage`), and the owner whose totals are passed as KEYS[7] and
 * KEYS[8] ('' = none). Every total goes through HINCRBYFLOAT, so a count is never refused mid-script
 * for not being an integer.
 */
export function ledgerArguments(
  usage: UsageTotals | undefined,
  preview: string | undefined,
  now: number,
  where: string,
  owner = "",
): string[] {
  if (usage === undefined) return [preview ?? "", "", ...USAGE_FIELDS.map(() => "0"), owner];
  checkUsage(usage, where);
  return [preview ?? "", utcDay(now), ...USAGE_FIELDS.map((field) => String(usage[field])), owner];
}

// KEYS: the user's running totals, daily totals. ARGV: the day, then the 7 totals. Adds them (the
// Cluster's write after a session script that could not reach the user's slot).
const userUsageScript = `
local fields = ${luaFields}
for i = 1, ${USAGE_FIELDS.length} do
  local amount = ARGV[1 + i]
  if tonumber(amount) ~= 0 then
    redis.call('HINCRBYFLOAT', KEYS[1], fields[i], amount)
    redis.call('HINCRBYFLOAT', KEYS[2], ARGV[1] .. ':' .. fields[i], amount)
  end
end
return 1
`;

/** The keys of a user's totals, from the base of their keys (`<prefix>user:{<e>}`). */
export function userUsageKeys(userBase: string): { running: string; byDay: string } {
  return { running: `${userBase}:usage`, byDay: `${userBase}:usage-by-day` };
}

/** Adds `ledger` (the script's ARGV of it) to a user's totals, in the user's slot (a Cluster's write after the session script). */
export async function addUserUsage(transport: RedisTransport, userBase: string, ledger: string[]): Promise<void> {
  const keys = userUsageKeys(userBase);
  await transport.script(userUsageScript, [keys.running, keys.byDay], ledger.slice(1, 2 + USAGE_FIELDS.length));
}

/** A session's totals, from its meta hash. */
export function sessionTotals(meta: Record<string, string>): UsageTotals {
  return totalsFrom((field) => meta[usageField(field)]);
}

/** A user's running totals, or since the UTC day holding `since` (the sum of their daily totals, one hash read). */
export async function readUserUsage(transport: RedisTransport, userBase: string, since?: number): Promise<UsageTotals> {
  const keys = userUsageKeys(userBase);
  if (since === undefined) {
    const running = hashReply(await transport.read("HGETALL", keys.running, []), "the user's totals");
    return totalsFrom((field) => running[field]);
  }
  // Past the last day a Date can hold nothing was spent; before the first, everything was.
  if (since > MAX_TIME) return emptyTotals();
  const from = utcDay(Math.max(since, 0));
  const days = hashReply(await transport.read("HGETALL", keys.byDay, []), "the user's daily totals");
  const sums: Record<string, number> = {};
  for (const [name, value] of Object.entries(days)) {
    // `YYYY-MM-DD:<field>`: the day's ISO text sorts as the day does.
    if (name.slice(0, 10) < from || name[10] !== ":") continue;
    const field = name.slice(11);
    const amount = Number(value);
    if (Number.isFinite(amount)) sums[field] = (sums[field] ?? 0) + amount;
  }
  return totalsFrom((field) => sums[field]);
}

/** The last time a `Date` holds (ms since epoch). */
const MAX_TIME = 8.64e15;
