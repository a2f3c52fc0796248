/**
 * The quick start: a two-turn conversation that remembers.
 *
 *   npm install && npm run demo
 *
 * With OPENAI_API_KEY set it uses "openai/gpt-4o-mini"; else with ANTHROPIC_API_KEY set,
 * "anthropic/claude-haiku". With no API key it runs offline on agentcore's scripted model.
 * The first line of output says which.
 */
import { Agent, InMemoryStore, contentText, type LanguageModel } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

function chooseModel(): { model: string | LanguageModel; note: string } {
  // Real providers resolve from "provider/model" strings; offline, use the script.
  if (process.env.OPENAI_API_KEY) {
    return { model: "openai/gpt-4o-mini", note: "OPENAI_API_KEY found: using the real model openai/gpt-4o-mini." };
  }
  if (process.env.ANTHROPIC_API_KEY) {
    return {
      model: "anthropic/claude-haiku",
      note: "ANTHROPIC_API_KEY found: using the real model anthropic/claude-haiku.",
    };
  }
  return {
    model: new MockLanguageModel({
      responses: (call) => {
        const last = contentText(call.messages.at(-1)?.content ?? "");
        if (/prefer/i.test(last) && !/what/i.test(last))
          return { text: "Got it: you prefer TypeScript. I'll keep that in mind." };
        const earlier = call.messages.find(
          (message) => message.role === "user" && /prefer/i.test(contentText(message.content)),
        );
        return {
          text: earlier
            ? `You told me earlier: "${contentText(earlier.content)}" So, TypeScript.`
            : "I don't know yet. Tell me!",
        };
      },
    }),
    note: "No API key found: running offline on the scripted MockLanguageModel (set OPENAI_API_KEY to use a real model).",
  };
}

const { model, note } = chooseModel();
console.log(note);

const agent = new Agent({
  name: "assistant",
  model,
  systemPrompt: "You are a concise, helpful assistant.",
  memory: "full",
  memoryStore: new InMemoryStore(),
  sessionId: "quickstart-user-42",
});

for (const input of ["Hi, remember that I prefer TypeScript.", "What language do I prefer?"]) {
  console.log(`\nuser:      ${input}`);
  process.stdout.write("assistant: ");
  const stream = agent.stream(input);
  for await (const delta of stream.textStream) process.stdout.write(delta);
  const result = await stream.response;
  process.stdout.write(`\n           (${result.steps.length} step, session ${result.sessionId})\n`);
}

const stored = await agent.memoryStore.getMessages(agent.sessionId);
console.log(`\nThe store holds ${stored.length} messages for session "${agent.sessionId}".`);
