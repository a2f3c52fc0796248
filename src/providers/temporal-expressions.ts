/**
 * Time as a signal of recall: the dates and periods a text names, resolved against a reference
 * time. A query's expressions resolve against the time of the read ("last year" is the year before
 * now); a stored message's against its own timestamp ("yesterday" in a message of 17 March 2022 is
 * 16 March 2022). Calendar arithmetic is in UTC; weeks start on Monday; seasons are the northern
 * hemisphere's (spring March–May, summer June–August, autumn September–November, winter from
 * December into February). A month or day given without a year is the one nearest the reference.
 */

/** A stretch of time in ms since the epoch (UTC): from `start`, up to but not including `end`. */
export interface TimeSpan {
  start: number;
  end: number;
}

const DAY = 86_400_000;
const MONTHS = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december",
];
const WEEKDAYS = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
const NUMBERS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  few: 3,
  "a few": 3,
  "a couple of": 2,
  "a couple": 2,
  couple: 2,
  several: 3,
};
/** First month (0-based) of each season; winter runs from December into the next year. */
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };

const MONTH = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)\\.?`;
const DAY_NUMBER = `(\\d{1,2})(?:st|nd|rd|th)?`;
const YEAR = `((?:19|20)\\d\\d)`;
const COUNT = `(\\d+|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a few|a couple(?: of)?|few|several)`;
const UNIT = `(day|week|month|year)s?`;
const WEEKDAY = `(sunday|monday|tuesday|wednesday|thursday|friday|saturday)`;
const SEASON = `(spring|summer|autumn|fall|winter)`;
/** Which part of the span that follows: "early 2022", "towards the end of summer 2023", "mid-May". */
const PART = `(?:(early|beginning of|start of|the beginning of|the start of|mid|mid-|middle of|the middle of|late|end of|the end of|towards the end of|toward the end of|later in)\\s*)?`;

const dayStart = (time: number) => Math.floor(time / DAY) * DAY;
const monthSpan = (year: number, month: number): TimeSpan => ({
  start: Date.UTC(year, month, 1),
  end: Date.UTC(year, month + 1, 1),
});
const yearSpan = (year: number): TimeSpan => ({ start: Date.UTC(year, 0, 1), end: Date.UTC(year + 1, 0, 1) });
const daySpan = (start: number): TimeSpan => ({ start: dayStart(start), end: dayStart(start) + DAY });
const seasonSpan = (year: number, season: number): TimeSpan => ({
  start: Date.UTC(year, season, 1),
  end: Date.UTC(year, season + 3, 1),
});
/** Monday of the week holding `time`. */
const weekStart = (time: number) => dayStart(time) - ((new Date(time).getUTCDay() + 6) % 7) * DAY;

/** Month index of a month name or abbreviation ("sept." → 8), or -1. */
function monthOf(name: string): number {
  const word = name.toLowerCase().replace(/\.$/, "");
  return MONTHS.findIndex((month) => month === word || (word.length >= 3 && month.startsWith(word)));
}

/** The year that puts a month (or a day of it) nearest the reference time. */
function nearestYear(reference: number, month: number, day = 15): number {
  const year = new Date(reference).getUTCFullYear();
  let best = year;
  for (const candidate of [year - 1, year + 1]) {
    if (Math.abs(Date.UTC(candidate, month, day) - reference) < Math.abs(Date.UTC(best, month, day) - reference))
      best = candidate;
  }
  return best;
}

/** A valid calendar day (no 31 April, 29 February only in leap years), as its span; an empty span if invalid. */
function dateSpan(year: number, month: number, day: number): TimeSpan {
  const start = Date.UTC(year, month, day);
  const date = new Date(start);
  if (month < 0 || date.getUTCMonth() !== month || date.getUTCDate() !== day) return { start, end: start };
  return { start, end: start + DAY };
}

/** The part of a span a modifier names: thirds for early / mid / late. */
function part(span: TimeSpan, modifier: string | undefined): TimeSpan {
  if (!modifier) return span;
  const third = (span.end - span.start) / 3;
  const word = modifier.toLowerCase();
  if (/early|beginning|start/.test(word)) return { start: span.start, end: span.start + third };
  if (/mid/.test(word)) return { start: span.start + third, end: span.end - third };
  return { start: span.end - third, end: span.end };
}

const countOf = (word: string) => (/^\d+$/.test(word) ? Number(word) : (NUMBERS[word.toLowerCase()] ?? 1));

/** `count` units back from (or, negative, after) `reference`: the unit-long span that holds that time. */
function shifted(reference: number, unit: string, count: number): TimeSpan {
  const date = new Date(reference);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  switch (unit) {
    case "day":
      return daySpan(reference - count * DAY);
    case "week": {
      const start = weekStart(reference) - count * 7 * DAY;
      return { start, end: start + 7 * DAY };
    }
    case "month":
      return monthSpan(year, month - count);
    default:
      return yearSpan(year - count);
  }
}

/** The span from `count` units before `reference` up to it: "for three years", "for two weeks". */
function lasting(reference: number, unit: string, count: number): TimeSpan {
  const date = new Date(reference);
  const back =
    unit === "day"
      ? reference - count * DAY
      : unit === "week"
        ? reference - count * 7 * DAY
        : unit === "month"
          ? Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - count, date.getUTCDate())
          : Date.UTC(date.getUTCFullYear() - count, date.getUTCMonth(), date.getUTCDate());
  return { start: dayStart(back), end: dayStart(reference) + DAY };
}

/** The weekday named, relative to the reference day: "last" the one in the week before, "next" after, bare the latest not after it. */
function weekday(reference: number, day: number, relation: string | undefined): TimeSpan {
  const today = new Date(reference).getUTCDay();
  const word = relation?.toLowerCase();
  if (word === "next") return daySpan(reference + (((day - today + 6) % 7) + 1) * DAY);
  if (word === "this") return daySpan(weekStart(reference) + ((day + 6) % 7) * DAY);
  if (word === "last") return daySpan(reference - (((today - day + 6) % 7) + 1) * DAY);
  return daySpan(reference - ((today - day + 7) % 7) * DAY);
}

interface Rule {
  pattern: RegExp;
  /** The span a match names, or undefined to reject it (an invalid date, "may" as a verb). */
  resolve(match: RegExpExecArray, reference: number): TimeSpan | undefined;
  /** Only in stored messages: a duration is no period to look in. */
  mentionsOnly?: boolean;
}

const rule = (source: string, resolve: Rule["resolve"], mentionsOnly = false): Rule => ({
  pattern: new RegExp(`\\b${source}\\b`, "gi"),
  resolve,
  mentionsOnly,
});

/** "May" is a month only in month-like company: capitalised and after a preposition, or next to a day or a year. */
const mayIsMonth = (match: RegExpExecArray, month: string, yearOrDay: boolean) =>
  !/^may$/i.test(month) ||
  yearOrDay ||
  (/^May$/.test(month) &&
    /\b(?:in|of|since|during|until|till|by|from|early|late|mid|last|next|this|end|beginning|start|through)[\s-]*$/i.test(
      match.input.slice(Math.max(0, match.index - 24), match.index + match[0].indexOf(month)),
    ));

/** The rules, most specific first; a later rule never matches text an earlier one took. */
const RULES: Rule[] = [
  rule(`(\\d{4})-(\\d{1,2})-(\\d{1,2})`, (m) => dateSpan(Number(m[1]), Number(m[2]) - 1, Number(m[3]))),
  rule(`(\\d{1,2})/(\\d{1,2})/(\\d{4})`, (m) => dateSpan(Number(m[3]), Number(m[1]) - 1, Number(m[2]))),
  rule(`${MONTH}\\s+${DAY_NUMBER},?\\s+${YEAR}`, (m) => dateSpan(Number(m[3]), monthOf(m[1]!), Number(m[2]))),
  rule(`${DAY_NUMBER}\\s+(?:of\\s+)?${MONTH},?\\s+${YEAR}`, (m) =>
    dateSpan(Number(m[3]), monthOf(m[2]!), Number(m[1])),
  ),
  rule(`${PART}${SEASON}\\s+(?:of\\s+)?${YEAR}`, (m) =>
    part(seasonSpan(Number(m[3]), SEASONS[m[2]!.toLowerCase()]!), m[1]),
  ),
  rule(`${PART}${MONTH},?\\s+(?:of\\s+)?${YEAR}`, (m) =>
    monthOf(m[2]!) < 0 ? undefined : part(monthSpan(Number(m[3]), monthOf(m[2]!)), m[1]),
  ),
  rule(`${MONTH}\\s+${DAY_NUMBER}(?!\\d|:)`, (m, reference) => {
    const month = monthOf(m[1]!);
    if (month < 0 || !mayIsMonth(m, m[1]!, /^May$/.test(m[1]!))) return undefined;
    return dateSpan(nearestYear(reference, month, Number(m[2])), month, Number(m[2]));
  }),
  rule(`${DAY_NUMBER}\\s+(?:of\\s+)?${MONTH}`, (m, reference) => {
    const month = monthOf(m[2]!);
    if (month < 0 || !mayIsMonth(m, m[2]!, /^May$/.test(m[2]!))) return undefined;
    return dateSpan(nearestYear(reference, month, Number(m[1])), month, Number(m[1]));
  }),
  rule(`${PART}(?:(?:the\\s+)?year\\s+)?${YEAR}`, (m) => part(yearSpan(Number(m[2])), m[1])),
  rule(`(the day before yesterday)`, (_, reference) => daySpan(reference - 2 * DAY)),
  rule(`(yesterday|last night)`, (_, reference) => daySpan(reference - DAY)),
  rule(`(today|tonight|this morning|this afternoon|this evening)`, (_, reference) => daySpan(reference)),
  rule(`(tomorrow)`, (_, reference) => daySpan(reference + DAY)),
  rule(`${COUNT}\\s+${UNIT}\\s+ago`, (m, reference) => {
    const count = countOf(m[1]!);
    const unit = m[2]!.toLowerCase();
    if (/few|several|couple/i.test(m[1]!) && unit === "day")
      return { start: dayStart(reference) - 5 * DAY, end: dayStart(reference) };
    return shifted(reference, unit, count);
  }),
  rule(
    `for\\s+(?:the\\s+(?:past|last)\\s+)?${COUNT}\\s+${UNIT}`,
    (m, reference) => lasting(reference, m[2]!.toLowerCase(), countOf(m[1]!)),
    true,
  ),
  rule(`(last|this|next)\\s+weekend`, (m, reference) => {
    const saturday = weekStart(reference) + 5 * DAY;
    const offset = { last: -7, this: 0, next: 7 }[m[1]!.toLowerCase() as "last"]!;
    return { start: saturday + offset * DAY, end: saturday + (offset + 2) * DAY };
  }),
  rule(`(last|this|next)\\s+${UNIT}`, (m, reference) =>
    shifted(reference, m[2]!.toLowerCase(), { last: 1, this: 0, next: -1 }[m[1]!.toLowerCase() as "last"]!),
  ),
  rule(`(?:(last|this|next)\\s+)?${PART}${SEASON}`, (m, reference) => {
    const season = SEASONS[m[3]!.toLowerCase()]!;
    const relation = m[1]?.toLowerCase();
    let year = nearestYear(reference, season, 45);
    const start = Date.UTC(year, season, 1);
    if (relation === "last" && start + 92 * DAY > reference) year--;
    else if (relation === "next" && start <= reference) year++;
    else if (relation === "this")
      year = new Date(reference).getUTCFullYear() - (season === 11 && new Date(reference).getUTCMonth() < 2 ? 1 : 0);
    return part(seasonSpan(year, season), m[2]);
  }),
  rule(`(?:(last|this|next|on)\\s+)?${WEEKDAY}`, (m, reference) =>
    weekday(reference, WEEKDAYS.indexOf(m[2]!.toLowerCase()), m[1] === "on" ? undefined : m[1]),
  ),
  rule(`(?:(last|this|next|in|of|since|during|until|by|from)\\s+)?${PART}${MONTH}`, (m, reference) => {
    const month = monthOf(m[3]!);
    if (month < 0 || m[3]!.length < 3 || (m[3]!.length <= 4 && !/^(june|july)$/i.test(m[3]!) && !m[1] && !m[2]))
      return undefined;
    if (!mayIsMonth(m, m[3]!, false)) return undefined;
    const relation = m[1]?.toLowerCase();
    const current = new Date(reference).getUTCFullYear();
    let year = nearestYear(reference, month);
    const now = new Date(reference).getUTCMonth();
    if (relation === "last") year = month < now ? current : current - 1;
    else if (relation === "next") year = month > now ? current : current + 1;
    else if (relation === "this") year = current;
    return part(monthSpan(year, month), m[2]);
  }),
];

/**
 * The dates and periods a text names, each resolved against `reference` (ms since the epoch):
 * absolute dates ("March 16, 2022", "16 March 2022", "2022-03-16"), months and seasons ("in
 * January 2022", "towards the end of summer 2023", "in May"), years, relative days and periods
 * ("yesterday", "two days ago", "last week", "next month", "last year", "last Friday") and, with
 * `durations`, how long something has lasted ("for three years": the three years up to the
 * reference). In order of appearance; overlapping phrases count once.
 */
export function timeExpressions(text: string, reference: number, durations = true): TimeSpan[] {
  return found(text, reference, durations).map(({ span }) => span);
}

/** The expressions of `text`, with where each starts and ends in it, in order. */
function found(text: string, reference: number, durations: boolean): { at: number; to: number; span: TimeSpan }[] {
  const taken: [number, number][] = [];
  const spans: { at: number; to: number; span: TimeSpan }[] = [];
  for (const { pattern, resolve, mentionsOnly } of RULES) {
    if (mentionsOnly && !durations) continue;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const from = match.index;
      const to = from + match[0].length;
      if (taken.some(([start, end]) => from < end && to > start)) continue;
      const span = resolve(match, reference);
      if (!span) continue;
      // An impossible date ("February 29, 2023") takes its words but names nothing.
      taken.push([from, to]);
      if (span.end > span.start) spans.push({ at: from, to, span });
    }
  }
  return spans.sort((left, right) => left.at - right.at);
}

/**
 * The period a query asks about: the smallest span holding every date and period it names, and
 * the query without them (`rest`, what to match by words), or undefined when it names none.
 * Relative expressions resolve against `now`, or against the earliest date the query gives in full.
 */
export function queryPeriod(query: string, now: number): (TimeSpan & { rest: string }) | undefined {
  let spans = found(query, now, false);
  if (spans.length === 0) return undefined;
  // A date given in full anchors the query's relative ones: "last weekend before April 10, 2023" is
  // the weekend before that date, not before now. Full dates resolve the same from any reference.
  if (spans.length > 1) {
    const elsewhere = found(query, now - 40 * 365 * DAY, false);
    const full = spans.filter(({ at, span }) =>
      elsewhere.some((other) => other.at === at && other.span.start === span.start && other.span.end === span.end),
    );
    if (full.length > 0 && full.length < spans.length)
      spans = found(query, Math.min(...full.map(({ span }) => span.start)), false);
  }
  let rest = "";
  let from = 0;
  for (const { at, to } of spans) {
    rest += `${query.slice(from, at)} `;
    from = to;
  }
  return {
    start: Math.min(...spans.map(({ span }) => span.start)),
    end: Math.max(...spans.map(({ span }) => span.end)),
    rest: (rest + query.slice(from)).replace(/\s+/g, " ").trim(),
  };
}

/** The times a stored message mentions, resolved against its own timestamp, as flat `[start, end, …]` pairs. */
export function mentionedTimes(content: string, timestamp: number): number[] {
  return timeExpressions(content, timestamp).flatMap((span) => [span.start, span.end]);
}

/** Whether two spans share any time. */
export function overlaps(left: TimeSpan, right: TimeSpan): boolean {
  return left.start < right.end && right.start < left.end;
}
