import { describe, expect, it } from "vitest";
import { mentionedTimes, overlaps, queryPeriod, timeExpressions } from "./temporal-expressions";

const day = (text: string) => text.slice(0, 10);
/** The spans a text names against `reference`, as "YYYY-MM-DD..YYYY-MM-DD" (end exclusive). */
const spans = (text: string, reference: number, durations = true) =>
  timeExpressions(text, reference, durations).map(
    (span) => `${day(new Date(span.start).toISOString())}..${day(new Date(span.end).toISOString())}`,
  );
// Thursday 17 March 2022, 1 pm (UTC).
const THURSDAY = Date.UTC(2022, 2, 17, 13, 0);

describe("timeExpressions: absolute dates and periods", () => {
  it.each([
    ["Which activity was he pursuing on March 16, 2022?", "2022-03-16..2022-03-17"],
    ["on 16 March 2022", "2022-03-16..2022-03-17"],
    ["on the 16th of March, 2022", "2022-03-16..2022-03-17"],
    ["Mar. 16th 2022", "2022-03-16..2022-03-17"],
    ["2022-03-16", "2022-03-16..2022-03-17"],
    ["3/16/2022", "2022-03-16..2022-03-17"],
    ["What did she accomplish in January 2022?", "2022-01-01..2022-02-01"],
    ["in Sept 2021", "2021-09-01..2021-10-01"],
    ["Which year? In 2019.", "2019-01-01..2020-01-01"],
    ["summer 2023", "2023-06-01..2023-09-01"],
    ["towards the end of summer 2023", "2023-08-01..2023-09-01"],
    ["winter of 2022", "2022-12-01..2023-03-01"],
    ["mid-May 2023", "2023-05-11..2023-05-21"],
    ["at the end of June 2023", "2023-06-21..2023-07-01"],
    ["in early 2021", "2021-01-01..2021-05-02"],
  ])("%s", (text, expected) => {
    expect(spans(text, THURSDAY)).toEqual([expected]);
  });

  it("month boundaries: a month ends where the next begins, December rolls into the next year", () => {
    expect(spans("in December 2022", THURSDAY)).toEqual(["2022-12-01..2023-01-01"]);
    expect(spans("on 31 January 2022", THURSDAY)).toEqual(["2022-01-31..2022-02-01"]);
    expect(spans("in February 2024", THURSDAY)).toEqual(["2024-02-01..2024-03-01"]);
  });

  it("leap years: 29 February exists in 2024 and 2000, not in 2023 or 1900 (an impossible date names nothing)", () => {
    expect(spans("on 29 February 2024", THURSDAY)).toEqual(["2024-02-29..2024-03-01"]);
    expect(spans("February 29, 2000", THURSDAY)).toEqual(["2000-02-29..2000-03-01"]);
    expect(spans("February 29, 2023", THURSDAY)).toEqual([]);
    expect(spans("29 February 1900", THURSDAY)).toEqual([]);
    expect(spans("on April 31, 2022", THURSDAY)).toEqual([]);
    // "yesterday" on 1 March of a leap year is 29 February.
    expect(spans("yesterday", Date.UTC(2024, 2, 1, 9))).toEqual(["2024-02-29..2024-03-01"]);
    expect(spans("yesterday", Date.UTC(2023, 2, 1, 9))).toEqual(["2023-02-28..2023-03-01"]);
  });

  it('"May" is a month next to a day or a year, or capitalised after a preposition; never the verb', () => {
    expect(spans("I may go bowling", THURSDAY)).toEqual([]);
    expect(spans("May I ask you something?", THURSDAY)).toEqual([]);
    expect(spans("It may be late", THURSDAY)).toEqual([]);
    expect(spans("We moved in May.", THURSDAY)).toEqual(["2022-05-01..2022-06-01"]);
    expect(spans("since May 2020", THURSDAY)).toEqual(["2020-05-01..2020-06-01"]);
    expect(spans("on 8 May, 2023", THURSDAY)).toEqual(["2023-05-08..2023-05-09"]);
    expect(spans("May 5", THURSDAY)).toEqual(["2022-05-05..2022-05-06"]);
    expect(spans("in may", THURSDAY)).toEqual([]);
  });

  it("a month or a day without a year is the one nearest the reference", () => {
    expect(spans("in November", THURSDAY)).toEqual(["2021-11-01..2021-12-01"]);
    expect(spans("in June", THURSDAY)).toEqual(["2022-06-01..2022-07-01"]);
    expect(spans("on December 28", Date.UTC(2023, 0, 3))).toEqual(["2022-12-28..2022-12-29"]);
    expect(spans("on January 2", Date.UTC(2022, 11, 30))).toEqual(["2023-01-02..2023-01-03"]);
  });
});

describe("timeExpressions: relative to the reference", () => {
  it.each([
    ["Yesterday I went bowling", "2022-03-16..2022-03-17"],
    ["last night", "2022-03-16..2022-03-17"],
    ["the day before yesterday", "2022-03-15..2022-03-16"],
    ["today", "2022-03-17..2022-03-18"],
    ["tomorrow", "2022-03-18..2022-03-19"],
    ["two days ago", "2022-03-15..2022-03-16"],
    ["3 weeks ago", "2022-02-21..2022-02-28"],
    ["a month ago", "2022-02-01..2022-03-01"],
    ["a few days ago", "2022-03-12..2022-03-17"],
    ["last week", "2022-03-07..2022-03-14"],
    ["this week", "2022-03-14..2022-03-21"],
    ["next week", "2022-03-21..2022-03-28"],
    ["last weekend", "2022-03-12..2022-03-14"],
    ["this weekend", "2022-03-19..2022-03-21"],
    ["last month", "2022-02-01..2022-03-01"],
    ["next month", "2022-04-01..2022-05-01"],
    ["last year", "2021-01-01..2022-01-01"],
    ["next year", "2023-01-01..2024-01-01"],
    ["last Friday", "2022-03-11..2022-03-12"],
    ["on Friday", "2022-03-11..2022-03-12"],
    ["next Friday", "2022-03-18..2022-03-19"],
    ["on Thursday", "2022-03-17..2022-03-18"],
    ["last Thursday", "2022-03-10..2022-03-11"],
    ["last summer", "2021-06-01..2021-09-01"],
    ["last May", "2021-05-01..2021-06-01"],
    ["last February", "2022-02-01..2022-03-01"],
    ["next May", "2022-05-01..2022-06-01"],
  ])("%s", (text, expected) => {
    expect(spans(text, THURSDAY)).toEqual([expected]);
  });

  it("crosses month and year boundaries", () => {
    const newYear = Date.UTC(2023, 0, 1, 10); // Sunday 1 January 2023
    expect(spans("yesterday", newYear)).toEqual(["2022-12-31..2023-01-01"]);
    expect(spans("last month", newYear)).toEqual(["2022-12-01..2023-01-01"]);
    expect(spans("last week", newYear)).toEqual(["2022-12-19..2022-12-26"]);
    expect(spans("last Friday", newYear)).toEqual(["2022-12-30..2022-12-31"]);
    expect(spans("next month", Date.UTC(2022, 11, 31))).toEqual(["2023-01-01..2023-02-01"]);
  });

  it('durations ("for three years") reach back from the reference, only in stored messages', () => {
    expect(spans("we've been together for three years", THURSDAY)).toEqual(["2019-03-17..2022-03-18"]);
    expect(spans("I've had them for 2 months", THURSDAY)).toEqual(["2022-01-17..2022-03-18"]);
    expect(spans("for the past few weeks", THURSDAY)).toEqual(["2022-02-24..2022-03-18"]);
    expect(spans("for three years", THURSDAY, false)).toEqual([]);
  });

  it("finds every expression in order, each phrase once", () => {
    expect(spans("Last week I ran, and yesterday I swam; in January 2022 I rested.", THURSDAY)).toEqual([
      "2022-03-07..2022-03-14",
      "2022-03-16..2022-03-17",
      "2022-01-01..2022-02-01",
    ]);
    expect(spans("Nothing about time here.", THURSDAY)).toEqual([]);
    expect(spans("I counted 2022 marbles? no: 12022 and 1999999", THURSDAY)).toEqual(["2022-01-01..2023-01-01"]);
  });
});

describe("queryPeriod and mentionedTimes", () => {
  it("a query's period is the smallest span holding what it names, relative to now", () => {
    const period = queryPeriod("What did they do between January 2022 and March 2022?", THURSDAY)!;
    expect([period.start, period.end]).toEqual([Date.UTC(2022, 0, 1), Date.UTC(2022, 3, 1)]);
    expect(queryPeriod("What did I do last year?", THURSDAY)).toEqual({
      start: Date.UTC(2021, 0, 1),
      end: Date.UTC(2022, 0, 1),
      rest: "What did I do ?",
    });
    // A full date anchors the relative ones: the weekend before Monday 10 April 2023, not before now.
    const anchored = queryPeriod("What did Maria do last weekend before April 10, 2023?", THURSDAY)!;
    expect([anchored.start, anchored.end]).toEqual([Date.UTC(2023, 3, 8), Date.UTC(2023, 3, 11)]);
    expect(queryPeriod("How long has he had his turtles?", THURSDAY)).toBeUndefined();
  });

  it("a stored message's mentions resolve against its own timestamp, as flat pairs", () => {
    const march17 = Date.UTC(2022, 2, 17, 10);
    expect(mentionedTimes("Yesterday I went bowling!", march17)).toEqual([
      Date.UTC(2022, 2, 16),
      Date.UTC(2022, 2, 17),
    ]);
    expect(mentionedTimes("Bowling is fun.", march17)).toEqual([]);
    const asked = queryPeriod("Which activity was he pursuing on March 16, 2022?", Date.UTC(2030, 0, 1))!;
    const [start, end] = mentionedTimes("Yesterday I went bowling!", march17);
    expect(overlaps(asked, { start: start!, end: end! })).toBe(true);
    expect(overlaps(asked, { start: Date.UTC(2022, 2, 17), end: Date.UTC(2022, 2, 18) })).toBe(false);
  });
});
