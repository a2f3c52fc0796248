/**
 * Deepest nesting of objects and arrays accepted in a tool call's arguments (the arguments object
 * is level 1). Deeper arguments are not run: the model gets a tool error result saying so, and
 * the call is stored with `{}` (docs/sessions-and-runs.md, "What a run stores"). Well under what recursive code survives (a
 * structured clone fails near 2,000 levels, `JSON.stringify` near 5,000), and under the 64 levels
 * `convertToModelMessages` accepts from a browser, so a stored call always comes back from a UI.
 */
export const MAX_TOOL_ARGUMENTS_DEPTH = 50;

/**
 * What a tool call's arguments become when they are nested deeper than the bound: an empty
 * object (storable, sendable to every provider), recognised by identity when the call is run.
 */
export const ARGUMENTS_TOO_DEEP: Readonly<Record<string, unknown>> = Object.freeze({});

/**
 * Whether `value` nests objects or arrays deeper than `maxDepth` levels. Iterative, so a value of
 * any depth is measured without a stack overflow; a cycle counts as too deep.
 */
export function exceedsDepth(value: unknown, maxDepth = MAX_TOOL_ARGUMENTS_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const entry = stack.pop()!;
    if (entry.value === null || typeof entry.value !== "object") continue;
    if (entry.depth > maxDepth) return true;
    for (const child of Object.values(entry.value)) {
      if (child !== null && typeof child === "object") stack.push({ value: child, depth: entry.depth + 1 });
    }
  }
  return false;
}

/** A tool call's arguments, or `ARGUMENTS_TOO_DEEP` when they nest deeper than `MAX_TOOL_ARGUMENTS_DEPTH`. */
export function boundToolArguments(args: Record<string, unknown>): Record<string, unknown> {
  return exceedsDepth(args) ? (ARGUMENTS_TOO_DEEP as Record<string, unknown>) : args;
}
