// Structured output on the wire: the official openai and @anthropic-ai/sdk clients (agentcore's
// adapters) against the loopback server, which records each request's response_format /
// tools / tool_choice; and @ai-sdk/openai as agentcore's model side by side with the AI SDK's
// own generateText / streamText with Output.object on the same server.
import { createOpenAI as createAISDKOpenAI } from "@ai-sdk/openai";
import { generateText, Output, streamText as aiStreamText } from "ai";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../../src/agent/agent";
import { isToolPairingValid } from "../../src/messages/validate-tool-pairing";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import { createOpenAI } from "../../src/models/openai/openai-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { streamText } from "../../src/streaming/stream-text";
import { server, startFakeLlmServerPerTest } from "../helpers/fake-llm-server-per-test";
import type { RecordedRequest } from "../servers/fake-llm-server";
import {
  anthropicMessage,
  anthropicStream,
  openaiCompletion,
  openaiResponse,
  openaiResponsesStream,
  openaiStream,
} from "../servers/wire-formats";
import { weather, withoutMeta } from "./helpers";

startFakeLlmServerPerTest();

/** Every property required, optional ones nullable: the shape OpenAI's strict mode takes. */
const recipe = z.object({
  title: z.string(),
  minutes: z.number(),
  ingredients: z.array(z.object({ name: z.string(), grams: z.number().nullable() })),
});
const pancakes = {
  title: "Pancakes",
  minutes: 20,
  ingredients: [
    { name: "flour", grams: 200 },
    { name: "egg", grams: null },
  ],
};
const recipeJsonSchema = {
  type: "object",
  properties: {
    title: { type: "string" },
    minutes: { type: "number" },
    ingredients: {
      type: "array",
      items: {
        type: "object",
        properties: { name: { type: "string" }, grams: { type: ["number", "null"] } },
        required: ["name", "grams"],
        additionalProperties: false,
      },
    },
  },
  required: ["title", "minutes", "ingredients"],
  additionalProperties: false,
};

describe("structured output on OpenAI Chat Completions (official SDK, loopback)", () => {
  const openai = () => createOpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1` })("gpt-4o-mini");

  it("sends response_format json_schema, strict when every field is required, and returns the object", async () => {
    server.enqueue(openaiCompletion({ text: JSON.stringify(pancakes) }));
    const memoryStore = new InMemoryStore();
    const agent = new Agent({ model: openai(), memoryStore, sessionId: "s" });
    const result = await agent.run({
      input: "A recipe",
      output: { schema: recipe, name: "recipe", description: "A recipe" },
    });
    expect(result.object).toEqual(pancakes);
    expect(server.requests[0]!.body.response_format).toEqual({
      type: "json_schema",
      json_schema: { name: "recipe", description: "A recipe", schema: recipeJsonSchema, strict: true },
    });
    expect(withoutMeta(await memoryStore.getMessages("s"))).toEqual([
      { role: "user", content: "A recipe" },
      { role: "assistant", content: JSON.stringify(pancakes) },
    ]);
  });

  it("sends strict: false for a schema with an optional field (not strict-compatible), and still validates", async () => {
    server.enqueue(openaiCompletion({ text: '{"title":"Tea"}' }));
    const agent = new Agent({ model: openai() });
    const result = await agent.run({
      input: "x",
      output: z.object({ title: z.string(), note: z.string().optional() }),
    });
    expect(result.object).toEqual({ title: "Tea" });
    expect(server.requests[0]!.body.response_format.json_schema).toMatchObject({ name: "response", strict: false });
  });

  it("runs tools with response_format on every call, then the object; a failed reply is retried with its issue and not stored", async () => {
    server.enqueue(
      openaiCompletion({ toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Oslo" } }] }),
      openaiCompletion({ text: '{"title": "Oslo stew", "minutes": "long"}' }),
      openaiCompletion({ text: JSON.stringify(pancakes) }),
    );
    const memoryStore = new InMemoryStore();
    const agent = new Agent({ model: openai(), memoryStore, sessionId: "s", tools: { get_weather: weather } });
    const result = await agent.run({ input: "Cook for the weather", output: recipe });
    expect(result.object).toEqual(pancakes);
    expect(server.requests).toHaveLength(3);
    for (const request of server.requests) {
      expect(request.body.response_format.type).toBe("json_schema");
      expect(request.body.tools.map((entry: { function: { name: string } }) => entry.function.name)).toEqual([
        "get_weather",
      ]);
    }
    const retryMessages = server.requests[2]!.body.messages;
    expect(retryMessages.at(-2)).toMatchObject({
      role: "assistant",
      content: '{"title": "Oslo stew", "minutes": "long"}',
    });
    expect(retryMessages.at(-1).role).toBe("user");
    expect(retryMessages.at(-1).content).toMatch(/minutes/);
    const stored = await memoryStore.getMessages("s");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored.at(-1)!.content).toBe(JSON.stringify(pancakes));
  });

  it("streams partial objects from the SSE deltas", async () => {
    server.enqueue(openaiStream({ text: JSON.stringify(pancakes) }));
    const stream = new Agent({ model: openai() }).stream({ input: "A recipe", output: recipe });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect(await stream.object).toEqual(pancakes);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.at(-1)).toEqual(pancakes);
    expect(server.requests[0]!.body).toMatchObject({ stream: true, response_format: { type: "json_schema" } });
  });
});

describe("structured output on Anthropic Messages (official SDK, loopback): an output tool", () => {
  const anthropic = () => createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4");

  it("forces the output tool when the run has no tools, and stores the object as the answer, with no tool call", async () => {
    server.enqueue(anthropicMessage({ toolCalls: [{ id: "toolu_1", name: "recipe", arguments: pancakes }] }));
    const memoryStore = new InMemoryStore();
    const agent = new Agent({ model: anthropic(), memoryStore, sessionId: "s" });
    const result = await agent.run({ input: "A recipe", output: { schema: recipe, name: "recipe" } });
    expect(result.object).toEqual(pancakes);
    expect(result.finishReason).toBe("stop");
    expect(result.toolCalls).toEqual([]);
    const body = server.requests[0]!.body;
    expect(body.tools).toEqual([
      {
        name: "recipe",
        description: expect.stringContaining("final answer"),
        input_schema: recipeJsonSchema,
      },
    ]);
    expect(body.tool_choice).toEqual({ type: "tool", name: "recipe", disable_parallel_tool_use: true });
    expect(withoutMeta(await memoryStore.getMessages("s"))).toEqual([
      { role: "user", content: "A recipe" },
      { role: "assistant", content: JSON.stringify(pancakes) },
    ]);
  });

  it("an output tool input nested 5,000 deep is an invalid reply, asked for again, never a raw RangeError", async () => {
    const deep = `{"title":${'{"a":'.repeat(5000)}1${"}".repeat(5000)},"minutes":1,"ingredients":[]}`;
    const raw = JSON.stringify(
      anthropicMessage({ toolCalls: [{ id: "toolu_1", name: "recipe", arguments: {} }] }).body,
    ).replace('"input":{}', `"input":${deep}`);
    server.enqueue({ kind: "json", body: undefined, raw });
    server.enqueue(anthropicMessage({ toolCalls: [{ id: "toolu_2", name: "recipe", arguments: pancakes }] }));
    const agent = new Agent({ model: anthropic(), sessionId: "s" });
    const result = await agent.run({ input: "A recipe", output: { schema: recipe, name: "recipe" } });
    expect(result.object).toEqual(pancakes);
    expect(JSON.stringify(server.requests[1]!.body.messages)).toContain("deeper than");
  });

  it("offers the output tool beside the run's tools (tool_choice any, one call at a time): tools run, the object ends the run, the next turn is well paired", async () => {
    server.enqueue(
      anthropicMessage({ toolCalls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Oslo" } }] }),
      anthropicMessage({ toolCalls: [{ id: "toolu_2", name: "response", arguments: pancakes }] }),
      anthropicMessage({ text: "Pancakes, for the cold." }),
    );
    const memoryStore = new InMemoryStore();
    const agent = new Agent({ model: anthropic(), memoryStore, sessionId: "s", tools: { get_weather: weather } });
    const result = await agent.run({ input: "Cook for the weather", output: recipe });
    expect(result.object).toEqual(pancakes);
    for (const request of server.requests.slice(0, 2)) {
      expect(request.body.tools.map((entry: { name: string }) => entry.name)).toEqual(["get_weather", "response"]);
      expect(request.body.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
    }
    const stored = await memoryStore.getMessages("s");
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored.at(-1)).toMatchObject({ role: "assistant", content: JSON.stringify(pancakes) });
    expect(stored.at(-1)).not.toHaveProperty("toolCalls");
    expect(isToolPairingValid(stored)).toBe(true);

    // A text turn after it: no output tool, and the history sent holds no call to it.
    expect((await agent.run("Why?")).text).toBe("Pancakes, for the cold.");
    const next = server.requests[2]!.body;
    expect(next.tool_choice).toBeUndefined();
    expect(next.tools.map((entry: { name: string }) => entry.name)).toEqual(["get_weather"]);
    const toolUses = next.messages.flatMap((message: { content: { type: string; name?: string }[] }) =>
      message.content.filter((block) => block.type === "tool_use").map((block) => block.name),
    );
    expect(toolUses).toEqual(["get_weather"]);
    expect(next.messages.at(-2)).toEqual({
      role: "assistant",
      content: [{ type: "text", text: JSON.stringify(pancakes) }],
    });
  });

  it("renames the output tool when a run's tool has its name", async () => {
    server.enqueue(
      anthropicMessage({ toolCalls: [{ id: "toolu_1", name: "response_output", arguments: { title: "x" } }] }),
    );
    const agent = new Agent({ model: anthropic(), tools: { response: weather } });
    const result = await agent.run({ input: "x", output: z.object({ title: z.string() }) });
    expect(result.object).toEqual({ title: "x" });
    expect(server.requests[0]!.body.tools.map((entry: { name: string }) => entry.name)).toEqual([
      "response",
      "response_output",
    ]);
  });

  it("streams the output tool's input_json_delta as partial objects", async () => {
    server.enqueue(anthropicStream({ toolCalls: [{ id: "toolu_1", name: "response", arguments: pancakes }] }));
    const stream = new Agent({ model: anthropic() }).stream({ input: "A recipe", output: recipe });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect(await stream.object).toEqual(pancakes);
    expect((await stream.response).toolCalls).toEqual([]);
    expect(partials.length).toBeGreaterThan(3);
    expect(partials.at(-1)).toEqual(pancakes);
  });

  it("streamText takes output too, typed", async () => {
    server.enqueue(anthropicStream({ toolCalls: [{ id: "toolu_1", name: "response", arguments: pancakes }] }));
    const result = streamText({
      model: anthropic(),
      messages: [{ role: "user", content: "A recipe" }],
      output: recipe,
    });
    const object: z.output<typeof recipe> = await result.object;
    expect(object).toEqual(pancakes);
    expect((await result.response).object).toEqual(pancakes);
  });
});

describe("structured output through @ai-sdk/openai, side by side with the AI SDK's Output.object (loopback)", () => {
  const provider = () => createAISDKOpenAI({ apiKey: "sk-aisdk", baseURL: `${server.url}/v1` });
  const apis = [
    {
      name: "Chat Completions",
      model: () => provider().chat("gpt-4o-mini"),
      json: () => openaiCompletion({ text: JSON.stringify(pancakes) }),
      stream: () => openaiStream({ text: JSON.stringify(pancakes) }),
      format: (body: RecordedRequest["body"]) => body.response_format,
    },
    {
      name: "Responses",
      model: () => provider()("gpt-4o-mini"),
      json: () => openaiResponse({ text: JSON.stringify(pancakes) }),
      stream: () => openaiResponsesStream({ text: JSON.stringify(pancakes) }),
      format: (body: RecordedRequest["body"]) => body.text?.format,
    },
  ];

  for (const api of apis) {
    it(`${api.name}: the same response format and object as generateText({ output: Output.object })`, async () => {
      server.enqueue(api.json(), api.json());
      const ours = await new Agent({ model: api.model() }).run({ input: "A recipe", output: recipe });
      const theirs = await generateText({
        model: api.model(),
        prompt: "A recipe",
        output: Output.object({ schema: recipe }),
      });
      expect(ours.object).toEqual(pancakes);
      expect(theirs.output).toEqual(pancakes);
      const [ourFormat, theirFormat] = server.requests.map((request) => api.format(request.body));
      expect(ourFormat).toBeDefined();
      const { $schema: _ignored, ...theirSchema } = (theirFormat.schema ?? theirFormat.json_schema.schema) as Record<
        string,
        unknown
      >;
      expect(ourFormat.schema ?? ourFormat.json_schema.schema).toEqual(theirSchema);
      expect({ ...ourFormat, schema: undefined, json_schema: undefined }).toEqual({
        ...theirFormat,
        schema: undefined,
        json_schema: undefined,
      });
    });

    it(`${api.name}: streamed partial objects end where streamText's partialOutputStream ends`, async () => {
      server.enqueue(api.stream(), api.stream());
      const ours = new Agent({ model: api.model() }).stream({ input: "A recipe", output: recipe });
      const ourPartials: unknown[] = [];
      for await (const partial of ours.partialObjectStream) ourPartials.push(partial);
      const theirs = aiStreamText({
        model: api.model(),
        prompt: "A recipe",
        output: Output.object({ schema: recipe }),
      });
      const theirPartials: unknown[] = [];
      for await (const partial of theirs.partialOutputStream) theirPartials.push(partial);
      expect(await ours.object).toEqual(pancakes);
      expect(await theirs.output).toEqual(pancakes);
      expect(ourPartials.at(-1)).toEqual(theirPartials.at(-1));
      expect(ourPartials.length).toBeGreaterThan(3);
    });
  }
});
