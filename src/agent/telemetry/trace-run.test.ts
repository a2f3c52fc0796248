// OpenTelemetry traces of agent runs, recorded by the OpenTelemetry SDK's in-memory exporter: the
// span tree (parent and child ids) and the GenAI attributes, with inputs and outputs recorded or not.
import { describe, expect, it } from "vitest";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { Agent } from "../agent";
import { idOf, parentOf, recallProvider, recorder, weather } from "./__fixtures__/span-recorder";

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
});

function shiftHrtime([seconds, nanos]: [number, number], byNanos: number): [number, number] {
  const total = nanos + byNanos;
  return [seconds + Math.floor(total / 1e9), ((total % 1e9) + 1e9) % 1e9];
}

function hrtimeOrder(before: [number, number], after: [number, number]): boolean {
  return before[0] < after[0] || (before[0] === after[0] && before[1] <= after[1]);
}
