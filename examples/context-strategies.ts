/**
 * Context strategies: what the model sees of a long conversation.
 *
 *   npx tsx examples/context-strategies.ts
 *
 * Runs offline on the scripted model and prints, for each turn, how many messages the model
 * received and what the window dropped or summarised.
 */
import {
  Agent,
  SummaryMemory,
  TokenWindowMemory,
  estimateMessagesTokens,
  estimateTokens,
  trimToTokenBudget,
} from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

const model = new MockLanguageModel({
  responses: (call) =>
    call.system?.startsWith("You keep a running summary")
      ? { text: "The user has been asking about cities to visit; they like quiet places." }
      : { text: `Here is an answer about ${call.messages.at(-1)?.content ?? "that"}.` },
});

// A token window: the newest whole turns within 120 tokens.
const windowed = new Agent({ model, memory: new TokenWindowMemory({ maxTokens: 120 }), sessionId: "window-demo" });
windowed.on("context:trimmed", (event) =>
  console.log(
    `token_window: dropped ${event.droppedCount}, kept ${event.keptCount} (${event.tokensAfter} of ${event.tokensBefore} tokens, budget ${event.budget})`,
  ),
);
for (const city of ["Kyoto", "Lisbon", "Oslo", "Hobart", "Tallinn"])
  await windowed.run(`Is ${city} a quiet city to visit?`);

// A summary: older turns condensed into the system prompt, recent ones verbatim.
const summarising = new Agent({
  model,
  memory: new SummaryMemory({ summarizeThreshold: 6, recentMessages: 2 }),
  sessionId: "summary-demo",
});
summarising.on("memory:error", (event) => console.log("summary failed, token window used:", event.error));
for (const city of ["Kyoto", "Lisbon", "Oslo", "Hobart", "Tallinn"])
  await summarising.run(`Is ${city} a quiet city to visit?`);
const last = model.calls.at(-1)!;
console.log(
  `summary: the last request had ${last.messages.length} messages and a summary block:`,
  last.system?.includes("<conversation_summary>"),
);

// The token functions on their own.
console.log("tokens:", estimateTokens("Hello, world!", { model: "gpt-4o" }));
console.log("request:", estimateMessagesTokens(last.messages, { model: "gpt-4o", system: last.system }));
console.log("trimmed:", trimToTokenBudget(last.messages, 30).length, "messages");
