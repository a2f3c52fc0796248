import { describe, expect, it } from "vitest";
import { AgentEventEmitter } from "./agent-events";
import { RunNotifier } from "./run-notifier";

const base = { sessionId: "s", runId: "r" };
const stepStart = { type: "step:start", step: 1, messageCount: 2 } as const;

describe("RunNotifier", () => {
  it("a streamed run: emits the event and returns its stream part", () => {
    const events = new AgentEventEmitter();
    const seen: unknown[] = [];
    events.on("step:start", (event) => seen.push(event));
    expect(new RunNotifier(events, base, true).notify(stepStart)).toEqual({ type: "step-start", stepNumber: 1 });
    expect(seen).toEqual([{ ...base, step: 1, messageCount: 2 }]);
  });

  it("a run(): emits the event and builds no stream part, which nobody would read", () => {
    const events = new AgentEventEmitter();
    const seen: unknown[] = [];
    events.on("step:start", (event) => seen.push(event));
    const notifier = new RunNotifier(events, base, false);
    expect(notifier.notify(stepStart)).toBeUndefined();
    expect([...notifier.tell(stepStart)]).toEqual([]);
    expect(seen).toHaveLength(2);
  });
});
