// OpenTelemetry traces of agent runs, recorded by the OpenTelemetry SDK's in-memory exporter: the
// span tree (parent and child ids), the GenAI attributes, errors and aborts, and no span at all
// when telemetry is off.
import { context, ROOT_CONTEXT, trace, type Context, type ContextManager } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { AbortError } from "../../errors/abort-error";
import { APICallError } from "../../errors/api-call-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { RecallMemoryProvider } from "../../providers/memory-provider";
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

/** A tracer provider whose spans land in memory; `started` also holds the spans not ended yet. */
function recorder() {
  const exporter = new InMemorySpanExporter();
  const started: Span[] = [];
  const tracking: SpanProcessor = {
    onStart: (span) => void started.push(span),
    onEnd: () => {},
    forceFlush: async () => {},
    shutdown: async () => {},
  };
  const provider = new BasicTracerProvider({ spanProcessors: [tracking, new SimpleSpanProcessor(exporter)] });
  const spans = () => exporter.getFinishedSpans();
  const named = (name: string) => {
    const found = spans().filter((span) => span.name === name);
    if (found.length === 0)
      throw new Error(
        `no span "${name}" among ${spans()
          .map((span) => span.name)
          .join(", ")}`,
      );
    return found;
  };
  return {
    provider,
    tracer: provider.getTracer("test"),
    spans,
    named,
    one: (name: string) => named(name)[0]!,
    started,
  };
}

const idOf = (span: ReadableSpan) => span.spanContext().spanId;
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;
const exceptions = (span: ReadableSpan) => span.events.filter((event) => event.name === "exception");

const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: "22°C" }),
});

const recallProvider: RecallMemoryProvider = {
  type: "notes",
  read: async () => [{ id: "n1", content: "The user lives in Paris." }],
  write: async () => {},
};

describe("a traced run", () => {
  it("makes one span tree: the run, memory read, recall, fit and chat per step, the tool call, memory write", async () => {
    const { tracer, spans, one, named, started } = recorder();
    const model = new MockLanguageModel({
      modelId: "gpt-test",
      provider: "openai",
      responses: [
        { text: "Hi!" },
        {
          toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
          usage: { inputTokens: 30, outputTokens: 5 },
        },
        { text: "It is 22°C in Paris.", usage: { inputTokens: 50, outputTokens: 8 } },
      ],
    });
    const agent = new Agent({
      name: "assistant",
      model,
      memory: "sliding_window",
      maxMessages: 1,
      tools: { get_weather: weather },
      memoryProvider: recallProvider,
      sessionId: "s1",
      telemetry: { tracer, functionId: "weather-chat", metadata: { tenant: "acme" } },
    });
    await agent.run("Hello");
    expect(spans().map((span) => span.name)).toEqual([
      "agentcore.memory.read",
      "agentcore.recall",
      "agentcore.memory.fit",
      "chat gpt-test",
      "agentcore.memory.write",
      "invoke_agent assistant",
    ]);
    const first = spans().length;
    await agent.run("What is the weather in Paris?");

    const second = spans().slice(first);
    const root = second.find((span) => span.name === "invoke_agent assistant")!;
    expect(parentOf(root)).toBeUndefined();
    const children = second.filter((span) => parentOf(span) === idOf(root)).map((span) => span.name);
    expect(children).toEqual([
      "agentcore.memory.read",
      "agentcore.recall",
      "agentcore.memory.fit",
      "chat gpt-test",
      "execute_tool get_weather",
      "agentcore.memory.fit",
      "chat gpt-test",
      "agentcore.memory.write",
    ]);
    expect(second).toHaveLength(children.length + 1);
    // Every span started was ended.
    expect(started.every((span) => span.ended)).toBe(true);
    // One trace per run.
    expect(new Set(second.map((span) => span.spanContext().traceId)).size).toBe(1);

    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "assistant",
      "gen_ai.provider.name": "openai",
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-test",
      "gen_ai.conversation.id": "s1",
      "agentcore.session.id": "s1",
      "agentcore.strategy": "sliding_window",
      "agentcore.function_id": "weather-chat",
      "agentcore.metadata.tenant": "acme",
      "gen_ai.usage.input_tokens": 80,
      "gen_ai.usage.output_tokens": 13,
      "gen_ai.response.finish_reasons": ["stop"],
      "agentcore.steps": 2,
      "gen_ai.input.messages": JSON.stringify([
        { role: "user", parts: [{ type: "text", content: "What is the weather in Paris?" }] },
      ]),
      "gen_ai.output.messages": JSON.stringify([
        { role: "assistant", parts: [{ type: "text", content: "It is 22°C in Paris." }], finish_reason: "stop" },
      ]),
    });
    expect(root.status.code).toBe(0);

    const [firstChat, secondChat] = second.filter((span) => span.name === "chat gpt-test");
    expect(firstChat!.kind).toBe(2); // CLIENT
    expect(firstChat!.attributes).toMatchObject({
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-test",
      "gen_ai.response.model": "gpt-test",
      "gen_ai.usage.input_tokens": 30,
      "gen_ai.usage.output_tokens": 5,
      "gen_ai.response.finish_reasons": ["tool_call"],
      "agentcore.step": 1,
      "agentcore.session.id": "s1",
      "agentcore.function_id": "weather-chat",
    });
    // Inputs and outputs are recorded by default, in the conventions' format: what the model was
    // sent (the recalled memory in the turn's user message, before the question) and what it answered.
    expect(firstChat!.attributes["gen_ai.system_instructions"]).toBeUndefined();
    const sentUser = {
      role: "user",
      parts: [
        { type: "text", content: expect.stringMatching(/^<recalled_memories>[\s\S]*The user lives in Paris\./) },
        { type: "text", content: "What is the weather in Paris?" },
      ],
    };
    expect(JSON.parse(firstChat!.attributes["gen_ai.input.messages"] as string)).toEqual([sentUser]);
    expect(JSON.parse(firstChat!.attributes["gen_ai.output.messages"] as string)).toEqual([
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
        finish_reason: "tool_call",
      },
    ]);
    // The second call was sent the tool call and its result (after the same user message).
    expect(JSON.parse(secondChat!.attributes["gen_ai.input.messages"] as string)).toEqual([
      sentUser,
      {
        role: "assistant",
        parts: [{ type: "tool_call", id: "call_1", name: "get_weather", arguments: { city: "Paris" } }],
      },
      {
        role: "tool",
        parts: [
          {
            type: "tool_call_response",
            id: "call_1",
            response: JSON.stringify({ city: "Paris", temperature: "22°C" }),
          },
        ],
      },
    ]);
    expect(secondChat!.attributes).toMatchObject({
      "agentcore.step": 2,
      "gen_ai.response.finish_reasons": ["stop"],
      "gen_ai.usage.output_tokens": 8,
    });

    const toolSpan = second.find((span) => span.name === "execute_tool get_weather")!;
    expect(toolSpan.attributes).toMatchObject({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "get_weather",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.description": "Current weather in a city",
      "gen_ai.tool.call.arguments": JSON.stringify({ city: "Paris" }),
      "gen_ai.tool.call.result": JSON.stringify({ city: "Paris", temperature: "22°C" }),
    });
    // Spans follow each other: the first model call ended (was exported) before the tool's span, and
    // the tool started after it answered. The SDK anchors each span's clock on Date.now() (1 ms
    // steps), so two spans' times are comparable to about a millisecond only: 2 ms of slack.
    expect(second.indexOf(firstChat!)).toBeLessThan(second.indexOf(toolSpan));
    expect(hrtimeOrder(shiftHrtime(firstChat!.endTime, -2_000_000), toolSpan.startTime)).toBe(true);

    // The window: one turn kept of the two stored, the first turn dropped.
    const [fit] = second.filter((span) => span.name === "agentcore.memory.fit");
    expect(fit!.attributes).toMatchObject({
      "agentcore.strategy": "sliding_window",
      "agentcore.messages.kept": 1,
      "agentcore.messages.dropped": 2,
    });
    const read = second.find((span) => span.name === "agentcore.memory.read")!;
    expect(read.attributes).toMatchObject({
      "agentcore.messages.loaded": 2,
      "agentcore.facts.count": 0,
      "agentcore.memory.source": "store",
    });
    expect(second.find((span) => span.name === "agentcore.recall")!.attributes).toMatchObject({
      "agentcore.recall.count": 1,
      "agentcore.recall.provider": "notes",
      "agentcore.recall.query": "What is the weather in Paris?",
    });
    expect(second.find((span) => span.name === "agentcore.memory.write")!.attributes).toMatchObject({
      "agentcore.messages.written": 4,
    });
    expect(named("invoke_agent assistant")).toHaveLength(2);
    expect(one("invoke_agent assistant").attributes["agentcore.run.id"]).not.toBe(root.attributes["agentcore.run.id"]);
  });

  it("records no inputs or outputs when told not to", async () => {
    const { tracer, spans } = recorder();
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] }, { text: "Cold." }],
    });
    const agent = new Agent({
      model,
      tools: { get_weather: weather },
      memoryProvider: recallProvider,
      telemetry: { tracer, recordInputs: false, recordOutputs: false },
    });
    await agent.run("Weather in Oslo?");
    const recordedKeys = spans().flatMap((span) => Object.keys(span.attributes));
    for (const key of [
      "gen_ai.input.messages",
      "gen_ai.output.messages",
      "gen_ai.system_instructions",
      "gen_ai.tool.call.arguments",
      "gen_ai.tool.call.result",
      "agentcore.recall.query",
    ]) {
      expect(recordedKeys).not.toContain(key);
    }
    expect(spans().map((span) => span.name)).toContain("execute_tool get_weather");
    expect(JSON.stringify(spans().map((span) => span.attributes))).not.toMatch(/Oslo|Cold/);
  });

  it("records a failure's type, not its text, when inputs and outputs are not recorded", async () => {
    class QuotaError extends Error {}
    const secret = "4111-1111-1111-1111";
    const charge = tool({
      description: "Charges a card",
      parameters: z.object({ card: z.string() }),
      execute: async ({ card }) => Promise.reject(new QuotaError(`card ${card} is over its limit`)),
    });
    const failingRecall: RecallMemoryProvider = {
      type: "flaky",
      read: async () => Promise.reject(new TypeError(`no index for "${secret}"`)),
      write: async () => {},
    };
    const providerError = new APICallError({
      message: `The prompt "Charge ${secret}" was refused.`,
      statusCode: 400,
      provider: "mock",
      modelId: "mock-model",
      isRetryable: false,
    });
    const model = () =>
      new MockLanguageModel({
        responses: [
          { toolCalls: [{ name: "charge", arguments: { card: secret } }] },
          { toolCalls: [{ name: "charge", arguments: { card: 42 } }] },
          { error: providerError },
        ],
      });
    for (const options of [
      { recordInputs: false, recordOutputs: false },
      { recordInputs: false },
      { recordOutputs: false },
    ]) {
      const { tracer, spans, named, one } = recorder();
      const agent = new Agent({
        model: model(),
        tools: { charge },
        memoryProvider: failingRecall,
        telemetry: { tracer, ...options },
      });
      await expect(agent.run(`Charge ${secret}`)).rejects.toBe(providerError);
      // What the failures recorded: no message, no stack, with either option off.
      // (Events without their times, and the secret matched whole: a timestamp or a random id may hold "4111".)
      const failures = JSON.stringify(
        spans().map((span) => ({
          status: span.status,
          events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
        })),
      );
      expect(failures).not.toMatch(/4111-1111|over its limit|refused|no index|\.ts:/);
      if (options.recordInputs === false && options.recordOutputs === false) {
        expect(JSON.stringify(spans().map((span) => span.attributes))).not.toContain("4111-1111");
      }
      const [thrown, invalid] = named("execute_tool charge");
      expect(thrown!.status).toEqual({ code: 2, message: "QuotaError" });
      expect(thrown!.attributes["error.type"]).toBe("QuotaError");
      expect(exceptions(thrown!)[0]!.attributes).toEqual({ "exception.type": "QuotaError" });
      expect(invalid!.attributes["error.type"]).toBe("InvalidToolInputError");
      expect(one("agentcore.recall").attributes["error.type"]).toBe("TypeError");
      const chat = named("chat mock-model").at(-1)!;
      expect(chat.status).toEqual({ code: 2, message: "APICallError" });
      expect(exceptions(chat)[0]!.attributes).toEqual({ "exception.type": "APICallError" });
      expect(one("invoke_agent").attributes["error.type"]).toBe("APICallError");
    }
    // With both on (the default) the text is recorded, as before.
    const { tracer, one, named } = recorder();
    const agent = new Agent({ model: model(), tools: { charge }, telemetry: { tracer } });
    await expect(agent.run(`Charge ${secret}`)).rejects.toBe(providerError);
    expect(one("execute_tool charge").status.message).toContain(`card ${secret} is over its limit`);
    expect(one("execute_tool charge").attributes["error.type"]).toBe("QuotaError");
    expect(named("chat mock-model").at(-1)!.status.message).toBe(providerError.message);
  });

  it("ends an aborted run's spans with status ERROR, marked aborted, and records the write of what completed", async () => {
    const { tracer, spans, one, started } = recorder();
    const model = new MockLanguageModel({
      chunkSize: 2,
      chunkDelayMs: 5,
      responses: [
        { toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] },
        { text: "This answer is long and will be cut off by the abort." },
      ],
    });
    const agent = new Agent({ name: "bot", model, tools: { get_weather: weather }, telemetry: { tracer } });
    const controller = new AbortController();
    const stream = agent.stream({ input: "Weather in Rome?", signal: controller.signal });
    let deltas = 0;
    for await (const part of stream.fullStream) if (part.type === "text-delta" && ++deltas === 3) controller.abort();
    await expect(stream.response).rejects.toSatisfy(AbortError.isInstance);

    expect(started.every((span) => span.ended)).toBe(true);
    const root = one("invoke_agent bot");
    expect(root.status).toEqual({ code: 2, message: "The run was aborted." });
    expect(root.attributes).toMatchObject({
      "agentcore.aborted": true,
      "error.type": "AbortError",
      "agentcore.finish_reason": "aborted",
    });
    expect(exceptions(root)).toHaveLength(1);
    const chats = spans().filter((span) => span.name === "chat mock-model");
    expect(chats).toHaveLength(2);
    expect(chats[0]!.status.code).toBe(0);
    expect(chats[1]!.status.code).toBe(2);
    expect(chats[1]!.attributes).toMatchObject({ "agentcore.aborted": true });
    // The user message and the completed first step were stored on the way out.
    const writes = spans().filter((span) => span.name === "agentcore.memory.write");
    expect(writes).toHaveLength(1);
    expect(writes[0]!.attributes["agentcore.messages.written"]).toBe(3);
    expect(spans().every((span) => span.spanContext().traceId === root.spanContext().traceId)).toBe(true);
  });

  it("gives a failing provider's call and the run status ERROR with the exception", async () => {
    const { tracer, spans, one, started } = recorder();
    const failure = new APICallError({
      message: "The server had an error.",
      statusCode: 500,
      provider: "mock",
      modelId: "mock-model",
      isRetryable: true,
    });
    const model = new MockLanguageModel({ responses: [{ error: failure }] });
    const agent = new Agent({ model, telemetry: { tracer } });
    await expect(agent.run("Hi")).rejects.toBe(failure);

    expect(started.every((span) => span.ended)).toBe(true);
    const chat = one("chat mock-model");
    expect(chat.status).toEqual({ code: 2, message: "The server had an error." });
    expect(chat.attributes["error.type"]).toBe("APICallError");
    expect(exceptions(chat)[0]!.attributes).toMatchObject({
      "exception.type": "APICallError",
      "exception.message": "The server had an error.",
    });
    expect(chat.attributes).not.toHaveProperty("agentcore.aborted");
    const root = one("invoke_agent");
    expect(root.status.code).toBe(2);
    expect(root.attributes).toMatchObject({ "error.type": "APICallError", "agentcore.finish_reason": "error" });
    expect(parentOf(chat)).toBe(idOf(root));
    expect(spans().map((span) => span.name)).toEqual([
      "agentcore.memory.read",
      "agentcore.memory.fit",
      "chat mock-model",
      "agentcore.memory.write",
      "invoke_agent",
    ]);
  });

  it("marks a tool call that failed (its error went back to the model) and a recall that failed, while the run succeeds", async () => {
    const { tracer, one } = recorder();
    const broken = tool({
      description: "Always fails",
      parameters: z.object({}),
      execute: async () => Promise.reject(new Error("disk full")),
    });
    const failingRecall: RecallMemoryProvider = {
      type: "flaky",
      read: async () => Promise.reject(new Error("index offline")),
      write: async () => {},
    };
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ name: "broken", arguments: {} }] }, { text: "Sorry." }],
    });
    const agent = new Agent({ model, tools: { broken }, memoryProvider: failingRecall, telemetry: { tracer } });
    await agent.run("Try it");
    expect(one("execute_tool broken").status).toEqual({ code: 2, message: 'Error: Tool "broken" failed: disk full' });
    expect(one("agentcore.recall").status).toEqual({ code: 2, message: "index offline" });
    expect(one("invoke_agent").status.code).toBe(0);
  });

  it("makes no span when telemetry is off, even with a global tracer provider registered", async () => {
    const { provider, spans } = recorder();
    trace.setGlobalTracerProvider(provider);
    try {
      const model = new MockLanguageModel({
        responses: [
          { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] },
          { text: "Cold." },
          { text: "Again." },
        ],
      });
      await new Agent({ model, tools: { get_weather: weather }, memoryProvider: recallProvider }).run("Weather?");
      await new Agent({ model, telemetry: { isEnabled: false } }).run("Again?");
      expect(spans()).toEqual([]);
    } finally {
      trace.disable();
    }
  });
});

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

function shiftHrtime([seconds, nanos]: [number, number], byNanos: number): [number, number] {
  const total = nanos + byNanos;
  return [seconds + Math.floor(total / 1e9), ((total % 1e9) + 1e9) % 1e9];
}

function hrtimeOrder(before: [number, number], after: [number, number]): boolean {
  return before[0] < after[0] || (before[0] === after[0] && before[1] <= after[1]);
}
