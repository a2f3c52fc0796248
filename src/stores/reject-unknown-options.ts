import { InvalidArgumentError } from "../errors/invalid-argument-error";

/**
 * Throws an `InvalidArgumentError` for the first option a store does not know, so a misspelt
 * namespace (`keyPrefix` for `prefix`, `tableName` for `tablePrefix`) or path fails at
 * construction instead of silently writing into the default, shared one. `aliases` maps names
 * users bring from other libraries to the right option, named in the message (as is a known
 * option spelt in another case); other unknown names get the list of known options. Options
 * whose value is `undefined` are ignored; anything but a plain object is left to the caller.
 */
export function rejectUnknownOptions(
  storeName: string,
  options: unknown,
  known: readonly string[],
  aliases: Record<string, string> = {},
): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || known.includes(name)) continue;
    const right = Object.hasOwn(aliases, name)
      ? aliases[name]
      : known.find((option) => option.toLowerCase() === name.toLowerCase());
    throw new InvalidArgumentError({
      argument: name,
      value,
      message:
        right === undefined
          ? `new ${storeName}() has no option "${name}". Its options are: ${known.join(", ")}.`
          : `new ${storeName}() has no option "${name}": use "${right}".`,
    });
  }
}
