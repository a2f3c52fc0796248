/**
 * Structured output: a typed object as the answer, after a tool call, with a reply that failed
 * the schema retried (and not stored), then streamed partial objects. Runs offline (a scripted
 * model); `npx tsx examples/structured-output.ts`. Use "openai/gpt-4o-mini" or
 * "anthropic/claude-sonnet" for a real model: the code is the same.
 */
import { z } from "zod";
import { Agent, InMemoryStore, tool } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const Outfit = z.object({
  city: z.string(),
  layers: z.array(z.string()),
  umbrella: z.boolean(),
});

const model = new MockLanguageModel({
  responses: [
    // Step 1: the model checks the weather.
    { toolCalls: [{ name: "get_weather", arguments: { city: "Oslo" } }] },
    // Step 2: a reply that fails the schema (umbrella is not a boolean): asked again with the issue.
    { object: { city: "Oslo", layers: ["wool sweater"], umbrella: "maybe" } },
    // The retry: the object.
    { object: { city: "Oslo", layers: ["wool sweater", "rain jacket"], umbrella: true } },
    // A second, streamed run.
    { object: { city: "Rome", layers: ["t-shirt"], umbrella: false } },
  ],
});

const memoryStore = new InMemoryStore();
const agent = new Agent({
  model,
  memoryStore,
  sessionId: "trip",
  tools: {
    get_weather: tool({
      description: "Current weather in a city",
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => ({ city, celsius: 4, rain: true }),
    }),
  },
});

const result = await agent.run({ input: "What should I wear in Oslo today?", output: Outfit });
console.log(result.object.layers.join(" + "), result.object.umbrella); // typed from the schema
console.log(model.calls[2]!.messages.at(-1)!.content); // the issue the retry was told

// Stored: the user message, the tool call and its result, the object's JSON. Not the failed reply.
const stored = await memoryStore.getMessages("trip");
console.log(stored.map((message) => message.role).join(","));
console.log(stored.at(-1)!.content);

const stream = agent.stream({ input: "And in Rome?", output: Outfit });
let partials = 0;
for await (const partial of stream.partialObjectStream) if (partial.city !== undefined) partials++;
const rome = await stream.object;
console.log(rome.city, partials > 1);
