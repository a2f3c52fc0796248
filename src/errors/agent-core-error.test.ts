import { describe, expect, it } from "vitest";
import { AgentCoreError, AbortError, InvalidArgumentError, SessionLockLostError, StoreError } from "./index";

describe("AgentCoreError markers", () => {
  it("recognises its own family and subclasses, not others", () => {
    const error = new StoreError({ store: "s", operation: "getMessages", message: "m", sessionId: "x" });
    expect(AgentCoreError.isInstance(error)).toBe(true);
    expect(StoreError.isInstance(error)).toBe(true);
    expect(InvalidArgumentError.isInstance(error)).toBe(false);
    expect(AgentCoreError.isInstance(new Error("plain"))).toBe(false);
    expect(AgentCoreError.isInstance(null)).toBe(false);
    expect(error.name).toBe("StoreError");
  });

  it("SessionLockLostError is a StoreError naming the session and the refused write", () => {
    const error = new SessionLockLostError({
      store: "PostgresMemoryStore",
      operation: "appendMessages",
      sessionId: "s",
    });
    expect(StoreError.isInstance(error) && SessionLockLostError.isInstance(error)).toBe(true);
    expect([error.name, error.store, error.operation, error.sessionId]).toEqual([
      "SessionLockLostError",
      "PostgresMemoryStore",
      "appendMessages",
      "s",
    ]);
    expect(error.message).toMatch(/lock on session "s" was lost/);
    expect(SessionLockLostError.isInstance(new StoreError({ store: "s", operation: "o", message: "m" }))).toBe(false);
  });

  it("works across duplicated installs (the marker is a global symbol, not the prototype)", () => {
    const foreign = Object.assign(new Error("from another copy"), {
      [Symbol.for("agentcore.error")]: true,
      [Symbol.for("agentcore.error.AbortError")]: true,
    });
    expect(AgentCoreError.isInstance(foreign)).toBe(true);
    expect(AbortError.isInstance(foreign)).toBe(true);
    expect(StoreError.isInstance(foreign)).toBe(false);
  });
});
