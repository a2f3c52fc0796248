/**
 * Whether `error` says that the package `name` is not installed (Node's `ERR_MODULE_NOT_FOUND`
 * from `import()`, `MODULE_NOT_FOUND` from `require()`), rather than that it failed to load.
 */
export function isModuleNotFound(error: unknown, name: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") &&
    typeof message === "string" &&
    (message.includes(`'${name}'`) || message.includes(`"${name}"`) || message.includes(`${name}/`))
  );
}
