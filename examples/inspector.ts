/**
 * The inspector: record what each model call received (`recordContext: true`), then look at it.
 * Runs offline (a scripted model); `npx tsx examples/inspector.ts` records three turns into
 * ./.agentcore/inspector-demo.json and prints the last call's context report; then
 * `npx agentcore inspect --store file:./.agentcore/inspector-demo.json` shows it in the browser.
 */
import { Agent, FileMemoryStore, TokenWindowMemory, type MemoryProvider, type MemoryRecord } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const store = new FileMemoryStore({ path: "./.agentcore/inspector-demo.json" });
const sessionId = `demo-${Date.now().toString(36)}`;

// A recall provider with fixed memories and scores, so the report shows what recall added.
const recall: MemoryProvider<MemoryRecord> = {
  type: "demo",
  read: async () => [{ id: "tea", content: "Ada drinks green tea.", score: 0.87 }],
  write: async () => {},
};

const agent = new Agent({
  model: new MockLanguageModel({
    responses: (_call, index) => ({ text: `Answer ${index + 1}. ${"A long and careful reply. ".repeat(20)}` }),
  }),
  systemPrompt: "You are a helpful assistant.",
  memory: new TokenWindowMemory({ maxTokens: 500 }),
  memoryStore: store,
  memoryProvider: recall,
  recordContext: true,
  sessionId,
});

for (const question of ["Hi, I'm Ada.", "What should I drink this afternoon?", "And tomorrow morning?"])
  await agent.run(question);

const [last] = await store.getContextReports(sessionId, { last: 1 });
console.log(`session ${sessionId}: ${last?.window.length} messages in the window, ${last?.tokens.total} tokens`);
console.log("left out:", last?.leftOut.map((entry) => `${entry.role} (${entry.reason})`).join(", ") || "nothing");
console.log("recalled:", last?.recalled.map((memory) => `${memory.content} (${memory.score})`).join(", "));
console.log("See it: npx agentcore inspect --store file:./.agentcore/inspector-demo.json");
