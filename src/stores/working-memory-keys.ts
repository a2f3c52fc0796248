import type { Fact } from "./memory-store";

/**
 * Working memory is kept as facts under reserved keys (docs/working-memory.md, "How it is stored"):
 * one fact per profile field, `~wm:` then the field's dotted path, and one fact holding the recent
 * changes. `~` and `:` are characters no fact key of the memory tools may hold (`normalizeFactKey`),
 * so the model can never read, overwrite or forget them as ordinary facts.
 */
export const WORKING_MEMORY_KEY_PREFIX = "~wm:";

/** The fact holding the recent changes (a JSON array, newest last). */
export const WORKING_MEMORY_CHANGES_KEY = "~wm-changes";

/** Whether a fact key is working memory's (a field or its change log), never an ordinary fact. */
export function isWorkingMemoryKey(key: string): boolean {
  return key.startsWith(WORKING_MEMORY_KEY_PREFIX) || key === WORKING_MEMORY_CHANGES_KEY;
}

/**
 * The facts that are facts: working memory's reserved keys left out. The one filter every fact
 * listing goes through (the facts block, the memory tools, the CLI, the inspector).
 */
export function ordinaryFacts(facts: readonly Fact[]): Fact[] {
  return facts.filter((fact) => !isWorkingMemoryKey(fact.key));
}

/**
 * The fact key of a field path (`["contact", "firstName"]`): each segment lower-case ASCII letters,
 * digits, `_` and `-` as they are, any other character as `%<hex code point>;` (so `firstName` is
 * `first%4e;ame`), segments joined by `.`. Keys come out lower-case, so a store that folds case keeps
 * camelCase fields apart, and a `.` inside a field name never reads as a separator.
 */
export function workingMemoryFieldKey(path: readonly string[]): string {
  return WORKING_MEMORY_KEY_PREFIX + path.map(encodeSegment).join(".");
}

/** The path of a field key (`workingMemoryFieldKey`'s inverse); undefined for any other key. */
export function workingMemoryPathOf(key: string): string[] | undefined {
  if (!key.startsWith(WORKING_MEMORY_KEY_PREFIX)) return undefined;
  return key
    .slice(WORKING_MEMORY_KEY_PREFIX.length)
    .split(".")
    .map((segment) =>
      segment.replace(/%([0-9a-f]+);/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16))),
    );
}

function encodeSegment(segment: string): string {
  let encoded = "";
  for (const character of segment) {
    encoded += /^[a-z0-9_-]$/.test(character) ? character : `%${character.codePointAt(0)!.toString(16)};`;
  }
  return encoded;
}
