/**
 * Semantic memory on Mem0 (https://mem0.ai): each finished turn is sent to mem0, which extracts
 * lasting facts; each new input searches the user's facts.
 *
 *   npm install mem0ai@^3
 *   MEM0_API_KEY=m0-… npx tsx examples/mem0.ts
 *
 * mem0ai is an optional peer of agentcore, imported only when a Mem0Provider is first used.
 * Mem0 processes additions asynchronously, so a fact can take a few seconds to become searchable.
 */
import { Agent, Mem0Provider } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

if (!process.env.MEM0_API_KEY) {
  console.error("Set MEM0_API_KEY to run this example (get a key at https://app.mem0.ai). Nothing was sent.");
  process.exit(1);
}

const memory = new Mem0Provider({ apiKey: process.env.MEM0_API_KEY, scope: "user" });
const model = new MockLanguageModel({ responses: () => ({ text: "OK." }) }); // we print what it was sent
const agent = new Agent({ model, memoryProvider: memory, memoryProviderTimeoutMs: 10_000 });
agent.on("memory:error", (event) => console.error(`mem0 ${event.operation} failed:`, event.error));

await agent.run({
  input: "I'm allergic to peanuts and I love Thai food.",
  sessionId: "monday",
  userId: "example-user",
});
await new Promise((resolve) => setTimeout(resolve, 5_000)); // let mem0 extract the facts
await agent.run({ input: "Suggest a dinner for me.", sessionId: "friday", userId: "example-user" });
console.log(model.calls.at(-1)!.system ?? "(nothing recalled yet)");
await memory.clear({ userId: "example-user" });
