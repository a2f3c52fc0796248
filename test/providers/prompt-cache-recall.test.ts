// Prompt caching with a memory provider, on the wire (the official Anthropic SDK against the
// loopback server that implements Anthropic's caching rule): recalled memories change with every
// input, so they travel in the turn's user message; the system prompt and the history before that
// message stay the same from turn to turn, and later turns read them from the cache.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../src/agent/agent";
import { createAnthropic } from "../../src/models/anthropic/anthropic-provider";
import type { RecallMemoryProvider } from "../../src/providers/memory-provider";
import { InMemoryStore } from "../../src/stores/in-memory-store";
import { AnthropicCacheServer, promptBlocks } from "../servers/anthropic-cache-server";
import type { RecordedRequest } from "../servers/fake-llm-server";
import { weather } from "./helpers";

const INSTRUCTIONS = "You are a careful assistant. ".repeat(20).trim();

/** Recalls a memory that names the query: the block differs every turn. */
const recall: RecallMemoryProvider = {
  type: "echo-recall",
  read: async ({ query }) => [{ id: `r-${query}`, content: `Something said about ${query}.` }],
  write: async () => {},
};

let server: AnthropicCacheServer;
let script: ((request: RecordedRequest, index: number) => { text?: string; toolCalls?: unknown[] }) | undefined;
beforeEach(async () => {
  script = undefined;
  server = await AnthropicCacheServer.start({
    minCacheableTokens: 1,
    answer: (request, index) => (script?.(request, index) as never) ?? { text: `Answer ${index}.` },
  });
});
afterEach(async () => {
  await server.close();
});

type WireBody = Parameters<typeof promptBlocks>[0] & { messages: { role: string; content: string | unknown[] }[] };

/** Estimated tokens of a request's prompt up to and including `messages[index]` (the server's count). */
function tokensThrough(body: WireBody, index: number): number {
  const before = promptBlocks({ ...body, messages: body.messages.slice(0, index + 1) });
  return before.reduce((total, block) => total + block.tokens, 0);
}

const agentWith = (sessionId: string) =>
  new Agent({
    model: createAnthropic({ apiKey: "sk-ant-test", baseURL: server.url })("claude-sonnet-4-5"),
    systemPrompt: INSTRUCTIONS,
    memory: "sliding_window",
    memoryStore: new InMemoryStore(),
    memoryProvider: recall,
    tools: { weather },
    sessionId,
  });

describe("prompt caching with recalled memories", () => {
  it("later turns read the system prompt and the history from the cache, the block rides in the user message", async () => {
    const agent = agentWith("recall-cache");
    for (let turn = 1; turn <= 5; turn++) await agent.run(`Question ${turn}`);

    const bodies = server.requests.map((request) => request.body as WireBody);
    for (const [index, body] of bodies.entries()) {
      // The system prompt is the instructions alone, the same every turn.
      expect(body.system).toEqual([{ type: "text", text: INSTRUCTIONS, cache_control: { type: "ephemeral" } }]);
      // The turn's user message carries this turn's block, before the question; earlier user messages do not.
      const last = body.messages.at(-1)!.content as { type: string; text: string }[];
      expect(last.map((block) => block.text)).toEqual([
        expect.stringMatching(new RegExp(`^<recalled_memories>[\\s\\S]*Question ${index + 1}\\.`)),
        `Question ${index + 1}`,
      ]);
      expect(JSON.stringify(body.messages.slice(0, -1))).not.toContain("recalled_memories");
    }
    // From the third turn on, everything up to the end of the turn before last is read from the
    // cache (the previous turn's end was written by the previous request, before its answer existed).
    for (const turn of [3, 4, 5]) {
      const body = bodies[turn - 1]!;
      const account = server.accounts[turn - 1]!;
      expect(account.cacheReadTokens).toBe(tokensThrough(body, body.messages.length - 4));
      expect(account.cacheReadTokens).toBeGreaterThan(tokensThrough({ ...body, messages: [] }, -1));
    }
  });

  it("a tool loop's later steps read the whole previous step, block included", async () => {
    script = (request, index) =>
      index === 1 && !JSON.stringify(request.body.messages).includes("tool_result")
        ? { toolCalls: [{ id: "toolu_1", name: "weather", arguments: { city: "Oslo" } }] }
        : { text: `Answer ${index}.` };
    const agent = agentWith("recall-tools");
    await agent.run("Hello");
    await agent.run("Weather in Oslo?");

    const [, step1, step2] = server.requests.map((request) => request.body as WireBody);
    // Both steps send the same user message, block included: step 2 reads step 1's whole request.
    const unmarked = (message: WireBody["messages"][number]) =>
      (message.content as { cache_control?: unknown }[]).map(({ cache_control: _ignored, ...block }) => block);
    expect(unmarked(step2!.messages[2]!)).toEqual(unmarked(step1!.messages[2]!));
    expect(JSON.stringify(step2!.messages[2])).toContain("recalled_memories");
    expect(server.accounts[2]!.cacheReadTokens).toBe(tokensThrough(step1!, step1!.messages.length - 1));
  });
});
