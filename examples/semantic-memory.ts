/**
 * Built-in semantic memory, no external service: every finished turn is indexed, and each new
 * input recalls the most relevant earlier turns of the same user — even from other sessions —
 * into a delimited block sent with that input (before it, in the turn's user message).
 *
 *   npx tsx examples/semantic-memory.ts
 *
 * Runs offline: lexical ranking (BM25 over stemmed terms, plus neighbouring-turn context) needs
 * no model. Pass `embedder` to rank by embeddings, or both fused (see docs/semantic-memory.md).
 */
import { Agent, SemanticMemoryProvider } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

/** A message's text parts (the recalled memories block, then the user's words). */
const partsOf = (content: string | { type: string; text?: string }[]) =>
  typeof content === "string" ? [content] : content.flatMap((part) => (part.type === "text" ? [part.text!] : []));

// A scripted model; we print what it was sent.
const model = new MockLanguageModel({ responses: () => ({ text: "Noted." }) });

const memory = new SemanticMemoryProvider({
  scope: "user", // a user's memories follow them into new sessions; other users never see them
  neighbours: { before: 1, after: 0 }, // bring the turn before each hit (often the question it answered)
});
const agent = new Agent({ model, memoryProvider: memory, systemPrompt: "You are a helpful assistant." });

// Monday: three separate sessions of the same user, one of another user.
await agent.run({ input: "My sister Ines is visiting from Porto in June.", sessionId: "mon-1", userId: "ana" });
await agent.run({ input: "I'm training for a half marathon, I run every Tuesday.", sessionId: "mon-2", userId: "ana" });
await agent.run({ input: "Book me a table for two at the sushi place.", sessionId: "mon-3", userId: "ana" });
await agent.run({ input: "My sister lives in Madrid.", sessionId: "bob-1", userId: "bob" });

// Friday, a brand-new session: the recall comes from Monday's sessions, and only Ana's.
await agent.run({ input: "When is my sister visiting?", sessionId: "fri-1", userId: "ana" });
// The turn's user message as the model got it: the <recalled_memories> block, then the question.
console.log(partsOf(model.calls.at(-1)!.messages.at(-1)!.content).join("\n\n"), "\n");

// What is stored, with its metadata.
for (const entry of await memory.entries({ userId: "ana" })) {
  console.log(`${entry.sessionId} ${entry.role} ${entry.messageId?.slice(0, 8)}… ${entry.content}`);
}
