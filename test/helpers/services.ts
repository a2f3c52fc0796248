/**
 * Whether tests that need an outside component (a browser, a database) must run: in CI, or
 * when AGENTCORE_REQUIRE_SERVICES is set, a missing component fails the suite; elsewhere the
 * tests are skipped with a visible message.
 */
export const servicesRequired = Boolean(process.env.CI || process.env.AGENTCORE_REQUIRE_SERVICES);

export function skipMessage(what: string, why: string): string {
  const message = `[agentcore tests] skipping ${what}: ${why}. Set AGENTCORE_REQUIRE_SERVICES=1 to make this a failure.`;
  console.warn(message);
  return message;
}
