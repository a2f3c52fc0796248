import { InvalidArgumentError } from "../errors/invalid-argument-error";

/**
 * Throws an `InvalidArgumentError` naming the first option of `options` that is not in `known`,
 * so a misspelt option (a namespace, a path) never silently falls back to its default. `aliases`
 * maps names users bring from other libraries to this store's name (`{ keyPrefix: "prefix" }`):
 * the message then says which name to use. Anything but a plain object is left to the caller.
 */
export function rejectUnknownOptions(storeName: string, options: unknown, known: readonly string[], aliases: Record<string, string> = {}): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) return;
  for (const name of Object.keys(options)) {
    if (known.includes(name)) continue;
    const alias = Object.hasOwn(aliases, name) ? aliases[name] : undefined;
    const hint = alias === undefined ? `Known options: ${known.join(", ")}.` : `Did you mean "${alias}"? Known options: ${known.join(", ")}.`;
    throw new InvalidArgumentError({
      argument: name,
      value: (options as Record<string, unknown>)[name],
      message: `${storeName} has no option "${name}". ${hint}`,
    });
  }
}
