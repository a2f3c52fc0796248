// The loopback LLM server the provider tests share: one fresh FakeLlmServer a test, started
// before it and closed after it, so no test sees another's script or recorded requests.
import { afterEach, beforeEach } from "vitest";
import { FakeLlmServer } from "../servers/fake-llm-server";

/**
 * The running test's server. A live binding: the importing file reads the server of the
 * current test (it is reassigned before each test by `startFakeLlmServerPerTest`).
 */
export let server: FakeLlmServer;

/** Starts a fresh FakeLlmServer before each test of the calling file and closes it after each. */
export function startFakeLlmServerPerTest(): void {
  beforeEach(async () => {
    server = await FakeLlmServer.start();
  });
  afterEach(async () => {
    await server.close();
  });
}
