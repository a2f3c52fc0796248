/** An environment variable, trimmed; undefined when unset or blank (and outside Node). */
export function readEnv(name: string): string | undefined {
  const value = globalThis.process?.env?.[name]?.trim();
  return value ? value : undefined;
}
