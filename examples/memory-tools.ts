/**
 * Self-managing memory: the model saves its own notes with remember_fact, and they reach it in
 * the system prompt of every later turn, even in a new session when facts are kept per user.
 *
 *   npx tsx examples/memory-tools.ts
 *
 * Runs offline on the scripted MockLanguageModel: the script plays the part of a model that
 * decides to call the memory tools.
 */
import { Agent, InMemoryStore } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

// The script: turn 1 saves two facts in one step, then answers; turn 2 answers from the
// facts it finds in its system prompt.
const script = [
  {
    toolCalls: [
      { name: "remember_fact", arguments: { key: "preferred_language", value: "TypeScript" } },
      { name: "remember_fact", arguments: { key: "editor_theme", value: "dark mode" } },
    ],
  },
  { text: "Noted: TypeScript, and dark mode." },
];
const scripted = new MockLanguageModel({
  responses: (call, index) =>
    script[index] ?? {
      text: call.system?.includes('"preferred_language": "TypeScript"')
        ? "Here is a TypeScript snippet for you:\n  const greet = (name: string) => `Hello, ${name}!`;"
        : "Which language would you like?",
    },
});

const store = new InMemoryStore();
const agent = new Agent({
  name: "assistant",
  model: scripted,
  systemPrompt: "You are a helpful coding assistant. Save lasting preferences with remember_fact.",
  memoryStore: store,
  enableMemoryTools: true,
  factScope: "user", // facts follow the user into new sessions
});

agent.on("memory:write", ({ fact }) => {
  if (fact) console.log(`  [memory:write] ${fact.action} ${fact.key} = ${fact.value ?? ""}`);
});

console.log("Offline demo: the scripted MockLanguageModel plays the model.\n");
const userId = "user-42"; // in a server: from the auth session, never from the request body

console.log("user: Remember that I prefer TypeScript and dark mode.");
const first = await agent.run({
  input: "Remember that I prefer TypeScript and dark mode.",
  sessionId: "thread-1",
  userId,
});
console.log(`assistant: ${first.text}\n`);

console.log("user (new thread): Show me how to greet someone.");
const second = await agent.run({ input: "Show me how to greet someone.", sessionId: "thread-2", userId });
console.log(`assistant: ${second.text}\n`);

console.log("The system prompt of that last call held:");
console.log(scripted.calls.at(-1)?.system);
