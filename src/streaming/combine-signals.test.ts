import { describe, expect, it } from "vitest";
import { combineSignals } from "./combine-signals";

/** An AbortSignal that counts its listeners. */
function countingSignal() {
  const controller = new AbortController();
  let listeners = 0;
  const add = controller.signal.addEventListener.bind(controller.signal);
  const remove = controller.signal.removeEventListener.bind(controller.signal);
  controller.signal.addEventListener = ((...args: Parameters<typeof add>) => (listeners++, add(...args))) as typeof add;
  controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => (
    listeners--, remove(...args)
  )) as typeof remove;
  return { controller, listeners: () => listeners };
}

describe("combineSignals", () => {
  it("aborts with the reason of the first source that aborts, and stops listening to all", () => {
    const first = countingSignal();
    const second = countingSignal();
    const combined = combineSignals([first.controller.signal, second.controller.signal]);
    expect(combined.signal.aborted).toBe(false);
    expect(first.listeners() + second.listeners()).toBe(2);
    second.controller.abort("second");
    expect(combined.signal.aborted).toBe(true);
    expect(combined.signal.reason).toBe("second");
    expect(first.listeners() + second.listeners()).toBe(0);
    first.controller.abort("first");
    expect(combined.signal.reason).toBe("second");
  });

  it("is aborted at once when a source already is", () => {
    const live = countingSignal();
    const combined = combineSignals([live.controller.signal, AbortSignal.abort("early")]);
    expect(combined.signal.reason).toBe("early");
    expect(live.listeners()).toBe(0);
  });

  it("removes its listeners on dispose, so a long-lived signal keeps none per request", () => {
    const server = countingSignal();
    for (let index = 0; index < 100; index++)
      combineSignals([server.controller.signal, new AbortController().signal]).dispose();
    expect(server.listeners()).toBe(0);
  });
});
