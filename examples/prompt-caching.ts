/**
 * Anthropic prompt caching: the agent places `cache_control` breakpoints by itself (instructions,
 * facts block, the previous request's end, the last message), and each turn's usage says how many
 * input tokens were read from the cache and written to it.
 *
 *   npx tsx examples/prompt-caching.ts           # offline: a loopback server started here that caches as Anthropic does
 *   npx tsx examples/prompt-caching.ts --ai-sdk  # the same with an @ai-sdk/anthropic model as `model`
 *   ANTHROPIC_API_KEY=sk-ant-... npx tsx examples/prompt-caching.ts --live [--ai-sdk]
 *
 * An `@ai-sdk/anthropic` model gets the same breakpoints, as its `providerOptions: { anthropic: {
 * cacheControl } }`, so the same tokens are read from the cache.
 *
 * The offline server keeps the prefix up to each breakpoint (tools, system, messages, as Anthropic
 * reads them) and reads the longest one a request repeats; tokens are estimated as 4 characters.
 */
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, createAnthropic, fromAISDK, InMemoryStore, type LanguageModel } from "agentcore";

const live = process.argv.includes("--live");
const server = live ? undefined : await startCachingServer();

async function claude(modelId: string): Promise<LanguageModel> {
  if (process.argv.includes("--ai-sdk")) {
    // Loaded only for --ai-sdk: the built-in provider needs no AI SDK package.
    const { createAnthropic: createAISDKAnthropic } = await import("@ai-sdk/anthropic");
    const anthropic = live
      ? createAISDKAnthropic()
      : createAISDKAnthropic({ apiKey: "sk-ant-offline", baseURL: `${server!.url}/v1` });
    return fromAISDK(anthropic(modelId)); // or pass anthropic(modelId) itself as `model`
  }
  const anthropic = live ? createAnthropic() : createAnthropic({ apiKey: "sk-ant-offline", baseURL: server!.url });
  return anthropic(modelId);
}

const agent = new Agent({
  model: await claude("claude-sonnet-4-5"),
  // Long, stable instructions: the part every session shares. (Anthropic caches 1,024 tokens or more.)
  systemPrompt: `You are a meticulous travel planner. ${"Check opening hours, travel times and prices before proposing a plan. ".repeat(60)}`,
  memory: "sliding_window",
  enableMemoryTools: true,
  memoryStore: new InMemoryStore(),
  sessionId: "trip-42",
});

const questions = [
  "Plan three days in Lisbon for two people who like museums.",
  "Make day two cheaper.",
  "Add a fado evening.",
  "Which day has the most walking?",
];
let read = 0;
let input = 0;
for (const [index, question] of questions.entries()) {
  const { usage } = await agent.run(question);
  read += usage.cachedInputTokens ?? 0;
  input += usage.inputTokens;
  console.log(
    `turn ${index + 1}: ${usage.inputTokens} input tokens, ${usage.cachedInputTokens ?? 0} read from the cache, ${usage.cacheCreationInputTokens ?? 0} written`,
  );
}
console.log(`read from the cache: ${Math.round((read / input) * 100)}% of input tokens`);
await server?.close();

/** A Messages API stand-in that answers briefly and caches prefixes up to breakpoints, as Anthropic does. */
async function startCachingServer() {
  const cached = new Set<string>();
  let turn = 0;
  const http = createServer(async (request, response) => {
    let text = "";
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text);
    // The prompt as Anthropic reads it: tools, system blocks, message blocks.
    const blocks: { cache_control?: unknown }[] = [
      ...(body.tools ?? []),
      ...(typeof body.system === "string" ? [{ type: "text", text: body.system }] : (body.system ?? [])),
      ...body.messages.flatMap((message: { role: string; content: object[] }) =>
        message.content.map((block) => ({ role: message.role, ...block })),
      ),
    ];
    let hash = "";
    let tokens = 0;
    const prefixes: { hash: string; tokens: number; breakpoint: boolean }[] = [];
    for (const { cache_control, ...block } of blocks) {
      hash = createHash("sha256").update(hash).update(JSON.stringify(block)).digest("hex");
      tokens += Math.ceil(JSON.stringify(block).length / 4);
      prefixes.push({ hash, tokens, breakpoint: cache_control != null });
    }
    // At each breakpoint, the longest prefix cached among it and the 20 blocks before it is read;
    // then the prefixes up to the breakpoints (of 1,024 tokens or more) are written.
    let readTokens = 0;
    let writtenTokens = 0;
    prefixes.forEach((prefix, index) => {
      if (!prefix.breakpoint) return;
      const hit = prefixes.slice(Math.max(0, index - 20), index + 1).findLast((earlier) => cached.has(earlier.hash));
      if (hit) readTokens = Math.max(readTokens, hit.tokens);
    });
    for (const prefix of prefixes) {
      if (!prefix.breakpoint || prefix.tokens < 1024) continue;
      cached.add(prefix.hash);
      writtenTokens = prefix.tokens;
    }
    const written = Math.max(0, writtenTokens - readTokens);
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        id: `msg_${++turn}`,
        type: "message",
        role: "assistant",
        model: body.model,
        content: [{ type: "text", text: `Here is plan revision ${turn}.` }],
        stop_reason: "end_turn",
        stop_sequence: null,
        usage: {
          input_tokens: tokens - readTokens - written,
          output_tokens: 8,
          cache_read_input_tokens: readTokens,
          cache_creation_input_tokens: written,
        },
      }),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
