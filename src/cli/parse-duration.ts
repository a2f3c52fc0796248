import { CliError } from "./cli-error";

const units: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** Parses `90s`, `15m`, `12h`, `7d`, `2w` into milliseconds. */
export function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smhdw])$/i.exec(text.trim());
  if (!match) throw new CliError(`--older-than ${text}: expected a duration such as 30m, 12h, 7d or 2w`);
  return Math.round(Number(match[1]) * units[match[2]!.toLowerCase()]!);
}
