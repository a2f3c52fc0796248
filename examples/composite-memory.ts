/**
 * Several memory providers behind one: each read asks all of them at once, each under its own
 * timeout, then merges and de-duplicates. A provider that fails or hangs is skipped; the others
 * still answer.
 *
 *   npx tsx examples/composite-memory.ts
 */
import { Agent, CompositeMemory, SemanticMemoryProvider, type MemoryProvider, type MemoryRecord } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

/** A message's text parts (the recalled memories block, then the user's words). */
const partsOf = (content: string | { type: string; text?: string }[]) =>
  typeof content === "string" ? [content] : content.flatMap((part) => (part.type === "text" ? [part.text!] : []));

// A team knowledge base that answers the same for everyone: a recall provider, whose read returns
// records (`MemoryProvider<MemoryRecord>`; a bare `MemoryProvider` is one whose read returns messages).
const handbook: MemoryProvider<MemoryRecord> = {
  type: "handbook",
  read: async ({ query }) =>
    /holiday|vacation|leave/i.test(query ?? "")
      ? [{ id: "hb-7", content: "Handbook: 25 days of paid leave; book through the HR portal." }]
      : [],
  write: async () => {},
};
// A provider that never answers (a remote service having a bad day).
const flaky: MemoryProvider<MemoryRecord> = { type: "flaky", read: () => new Promise(() => {}), write: async () => {} };

const memory = new CompositeMemory({
  providers: [new SemanticMemoryProvider({ scope: "user" }), handbook, { provider: flaky, timeoutMs: 200 }],
  mergeStrategy: "interleave",
  timeoutMs: 1_000,
  onError: (error, { provider, operation }) =>
    console.error(`(${provider} ${operation} skipped: ${(error as Error).message})`),
});

const model = new MockLanguageModel({ responses: () => ({ text: "OK." }) }); // we print what it was sent
const agent = new Agent({ model, memoryProvider: memory });
await agent.run({ input: "I want to take my holiday in the second half of August.", sessionId: "s1", userId: "kim" });
await agent.run({
  input: "How many holiday days do I have, and when did I want to go?",
  sessionId: "s2",
  userId: "kim",
});
// The recalled memories reach the model with the input: the turn's user message as it was sent.
console.log(partsOf(model.calls.at(-1)!.messages.at(-1)!.content).join("\n\n"));
