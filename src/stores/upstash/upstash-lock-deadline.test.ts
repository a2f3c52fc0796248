// UpstashRedisMemoryStore's lockSession settles within its own timeoutMs when the server does not
// answer, whatever the request timeout: the loopback fault proxy (test/helpers/http-fault-proxy.ts)
// holds the lock's request, and the lock call must reject while the request is still held. A take
// that lands after the caller gave up is given back, so the session is not left locked.
import { Redis } from "@upstash/redis";
import { afterAll, describe, expect, it } from "vitest";
import { type FaultProxy, startFaultProxy } from "../../../test/helpers/http-fault-proxy";
import { serviceAvailable, uniqueName } from "../../../test/helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "../../../test/helpers/upstash-rest-bridge";
import { SessionBusyError } from "../../errors/session-busy-error";
import { UpstashRedisMemoryStore } from "./index";

const available = await serviceAvailable("redis");
const prefix = `${uniqueName("agentcore-upstash-lock-deadline")}:`;
const bridge: UpstashRestBridge | undefined = available ? await startUpstashRestBridge() : undefined;
const proxy: FaultProxy | undefined = bridge ? await startFaultProxy(bridge.url) : undefined;
afterAll(async () => {
  await proxy?.close();
  await bridge?.close();
});

/** A store on `url` with a request timeout far longer than any lock wait here, and a lease that outlives the test. */
const storeOn = (url: string) =>
  new UpstashRedisMemoryStore({
    client: new Redis({ url, token: bridge!.token, retry: false, enableTelemetry: false }),
    prefix,
    requestTimeoutMs: 3_600_000,
    lockLeaseMs: 3_600_000,
  });

describe.skipIf(!available)("UpstashRedisMemoryStore lockSession deadline", () => {
  it("rejects with SessionBusyError at its own timeoutMs while the server still holds the request, and gives back the lock the late take got", async () => {
    const hung = storeOn(proxy!.url);
    const direct = storeOn(bridge!.url);
    proxy!.setFault({ kind: "hold" });
    try {
      let settled = false;
      const locking = hung.lockSession("s", { timeoutMs: 500 }).finally(() => {
        settled = true;
      });
      // Nothing answers the request until the lock call settled: only its own deadline can end it.
      const outcome = await locking.then(
        () => new Error("the lock was taken"),
        (error: unknown) => error,
      );
      expect(SessionBusyError.isInstance(outcome), String(outcome)).toBe(true);
      expect(settled).toBe(true);
      expect(proxy!.held).toBe(1);
    } finally {
      // The take lands now, after its caller gave up; it must not keep the session locked.
      proxy!.setFault(undefined);
      await proxy!.forwardHeld();
    }
    const release = await direct.lockSession("s", { timeoutMs: 30_000 });
    await release();
  });

  it("still makes one try with timeoutMs 0, answered", async () => {
    proxy!.setFault(undefined);
    const store = storeOn(proxy!.url);
    const release = await store.lockSession("zero", { timeoutMs: 0 });
    await expect(store.lockSession("zero", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    await release();
  });
});
