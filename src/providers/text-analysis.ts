import { stemmer } from "stemmer";

// English stop words: function words plus the question words and auxiliaries queries are made of.
const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are aren as at be because been before being below between both but by " +
    "can cannot could couldn did didn do does doesn doing don down during each few for from further had hadn has hasn have haven " +
    "having he her here hers herself him himself his how i if in into is isn it its itself just let ll me more most mustn my myself " +
    "no nor not now of off on once only or other ought our ours ourselves out over own re same shan she should shouldn so some such " +
    "than that the their theirs them themselves then there these they this those through to too under until up ve very was wasn we " +
    "were weren what when where which while who whom why will with won would wouldn you your yours yourself yourselves " +
    "also yes yeah oh ok okay hey hi wow really thing things lot get got would like just im ive id youre thats dont didnt doesnt cant wont isnt arent wasnt werent havent hasnt hadnt couldnt wouldnt shouldnt"
  ).split(" "),
);

/**
 * Words and numbers of a text, lower-cased, without diacritics, stop words (and the words of
 * `skipped`) and one-letter words, stemmed.
 */
export function analyzeText(text: string, skipped?: ReadonlySet<string>): string[] {
  const terms: string[] = [];
  const words = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .split(/[^\p{L}\p{N}]+/u);
  for (const word of words) {
    if (word.length < 2 && !/\d/.test(word)) continue;
    if (STOP_WORDS.has(word) || skipped?.has(word)) continue;
    if (word.length > 40) continue;
    terms.push(/^\p{N}+$/u.test(word) ? word : stemmer(word));
  }
  return terms;
}

/**
 * Words that frame a question rather than name what it asks about ("What kind of art…", "What
 * activities…", "How did she feel about…"): left out of a query's terms, kept in documents, where
 * they carry content ("your kind words"). Issue 33's term study: R@10 80.5 → 80.8 on the user's
 * path, leave-one-conversation-out too (BENCHMARKS.md, recall-protocol section).
 */
const QUERY_STOP_WORDS = new Set(["kind", "kinds", "type", "types", "think", "feel", "activity", "activities"]);

/**
 * A query's terms: `analyzeText` without the words that only frame a question (`QUERY_STOP_WORDS`),
 * unless the query holds nothing else.
 */
export function analyzeQuery(query: string): string[] {
  const terms = analyzeText(query, QUERY_STOP_WORDS);
  return terms.length > 0 ? terms : analyzeText(query);
}

const TIME_WORDS =
  /\b(?:yesterday|today|tonight|tomorrow|last|next|ago|recently|soon|weekends?|weeks?|months?|years?|january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|(?:19|20)\d\d)\b/i;

/** The text mentions a time: a relative one ("yesterday", "last week", "two years ago"), a month, a weekday or a year. */
export function mentionsTime(text: string): boolean {
  return TIME_WORDS.test(text);
}

/** The query asks when something happened ("When did…", "What year…", "How long ago…"). */
export function asksWhen(query: string): boolean {
  return /^\s*when\b|\bwhat (?:year|month|date|day|time)\b|\bhow long ago\b/i.test(query);
}
