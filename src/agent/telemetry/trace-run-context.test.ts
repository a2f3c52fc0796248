// OpenTelemetry traces of agent runs: the global tracer, the active context while a tool runs, a
// run's generator closed early, and the telemetry option's validation.
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { InMemoryStore } from "../../stores/in-memory-store";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { tool } from "../../tools/tool";
import { Agent } from "../agent";
import type { AgentConfig } from "../agent-config";
import type { AgentResult, AgentStreamPart } from "../agent-result";
import type { TurnRun } from "../turn-run";
import type { ResolvedTelemetry } from "./resolve-telemetry";
import type { TelemetryOptions } from "./telemetry-options";
import { traceRun } from "./trace-run";
import { idOf, parentOf, recorder } from "./__fixtures__/span-recorder";

describe("the global tracer", () => {
  afterEach(() => trace.disable());

  it("is used when telemetry is on without a tracer", async () => {
    const { provider, one } = recorder();
    trace.setGlobalTracerProvider(provider);
    const agent = new Agent({
      name: "globe",
      model: new MockLanguageModel({ responses: [{ text: "Hi!" }] }),
      memoryStore: new InMemoryStore(),
      telemetry: {},
    });
    await agent.run("Hello");
    const root = one("invoke_agent globe");
    expect(root.instrumentationScope.name).toBe("agentcore");
    expect(parentOf(one("chat mock-model"))).toBe(idOf(root));
  });
});

/** A context manager without async propagation: `with` makes a context active for the synchronous part of its callback. */
class StackContextManager implements ContextManager {
  private current: Context = ROOT_CONTEXT;
  active = () => this.current;
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    next: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const previous = this.current;
    this.current = next;
    try {
      return fn.call(thisArg, ...args);
    } finally {
      this.current = previous;
    }
  }
  bind = <T>(_context: Context, target: T) => target;
  enable = () => this;
  disable = () => this;
}

describe("the spans' context", () => {
  afterEach(() => context.disable());

  it("makes the tool call's span active while the tool runs, so the spans it starts nest under it", async () => {
    context.setGlobalContextManager(new StackContextManager());
    const { tracer, one } = recorder();
    let active: string | undefined;
    const probe = tool({
      description: "Reads the active span",
      parameters: z.object({}),
      execute: () => {
        active = trace.getActiveSpan()?.spanContext().spanId;
        return Promise.resolve("ok");
      },
    });
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ name: "probe", arguments: {} }] }, { text: "done" }],
    });
    await new Agent({ model, tools: { probe }, telemetry: { tracer } }).run("Go");
    expect(active).toBe(idOf(one("execute_tool probe")));
  });
});

describe("a traced run that is closed early", () => {
  it("ends its spans as cancelled when its generator is returned before the run finished", async () => {
    const { tracer, spans, started } = recorder();
    const agent = new Agent({ model: new MockLanguageModel({ responses: [{ text: "x" }] }), telemetry: { tracer } });
    const config = (agent as unknown as { config: AgentConfig & { telemetry: ResolvedTelemetry } }).config;
    const run = { runId: "r1", sessionId: "s1", input: "Hi", abortSignal: undefined } as unknown as TurnRun;
    async function* turn(traced: TurnRun): AsyncGenerator<AgentStreamPart, AgentResult> {
      traced.trace!.memoryRead();
      yield { type: "text-delta", delta: "partial" };
      throw new Error("not reached");
    }
    const generator = traceRun(config, run, turn);
    expect((await generator.next()).value).toEqual({ type: "text-delta", delta: "partial" });
    await generator.return(undefined as unknown as AgentResult);
    expect(started).toHaveLength(2);
    expect(started.every((span) => span.ended)).toBe(true);
    for (const span of spans())
      expect(span.attributes).toMatchObject({ "error.type": "cancelled", "agentcore.aborted": true });
  });
});

describe("the telemetry option", () => {
  it("is checked at construction", () => {
    const model = new MockLanguageModel({ responses: [] });
    const bad: [unknown, string][] = [
      ["yes", "telemetry"],
      [{ tracer: {} }, "telemetry.tracer"],
      [{ recordInputs: "no" }, "telemetry.recordInputs"],
      [{ functionId: 3 }, "telemetry.functionId"],
      [{ metadata: { tenant: { nested: true } } }, "telemetry.metadata.tenant"],
    ];
    for (const [telemetry, argument] of bad) {
      let thrown: unknown;
      try {
        new Agent({ model, telemetry: telemetry as TelemetryOptions });
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown) && thrown.argument, JSON.stringify(telemetry)).toBe(argument);
    }
  });
});
