/**
 * Regenerate and edit: answer the last question again, then edit an earlier question, with the
 * store as the source of truth (the old answer is replaced, never kept beside the new one). Runs
 * offline (a scripted model); `npx tsx examples/regenerate.ts`.
 */
import { Agent, InMemoryStore, NothingToRegenerateError } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const model = new MockLanguageModel({ responses: (_call, index) => ({ text: `answer ${index + 1}` }) });
const store = new InMemoryStore();
const agent = new Agent({ model, memoryStore: store, sessionId: "chat-1" });

await agent.run("What is a vector database?");
await agent.run("And when do I need one?");

// Regenerate: the last user message is answered again; its old answer goes in the same write.
const again = await agent.run({ sessionId: "chat-1", regenerate: true });
console.log(again.text); // answer 3
const roles = (await store.getMessages("chat-1")).map((message) => `${message.role}: ${message.content}`);
console.log(roles.join(" | ")); // user: What is…? | assistant: answer 1 | user: And when…? | assistant: answer 3

// Edit: the first question and everything after it give way to the new question and its answer.
const [first] = await store.getMessages("chat-1");
await agent.run({ input: "What is a graph database?", sessionId: "chat-1", replaceFrom: first!.id! });
console.log((await store.getMessages("chat-1")).map((message) => message.content).join(" | ")); // What is a graph database? | answer 4

// Nothing to regenerate in an empty session: a typed error, nothing changed.
try {
  await agent.run({ sessionId: "empty", regenerate: true });
} catch (error) {
  console.log(NothingToRegenerateError.isInstance(error) ? `${error.name}: ${error.reason}` : error);
}
