/**
 * The same agent with a tool on three kinds of provider:
 *
 *   OPENAI_API_KEY=sk-...     npx tsx examples/providers.ts openai
 *   ANTHROPIC_API_KEY=sk-...  npx tsx examples/providers.ts anthropic
 *   ollama serve & ollama pull llama3.1
 *                             npx tsx examples/providers.ts ollama    # or OLLAMA_BASE_URL=http://host:11434/v1
 *
 * Any OpenAI-compatible server (vLLM, llama.cpp's server, LM Studio) works like the Ollama case:
 * give createOpenAICompatible its base URL, or set OPENAI_BASE_URL and keep using "openai/<model>".
 */
import { z } from "zod";
import { Agent, APICallError, MissingApiKeyError, createOpenAICompatible, tool } from "agentcore";

const getWeather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string().describe("City name, e.g. Oslo") }),
  execute: async ({ city }) => ({ city, temperature: city.length % 2 ? "18°C" : "7°C", sky: "clear" }),
});

const choice = process.argv[2] ?? "openai";
let model: string;
switch (choice) {
  case "openai":
    // Reads OPENAI_API_KEY (and OPENAI_BASE_URL, if set).
    model = "openai/gpt-4o-mini";
    break;
  case "anthropic":
    // Reads ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL, if set). "claude-sonnet" is a short name.
    model = "anthropic/claude-sonnet";
    break;
  case "ollama": {
    // Registers the "ollama" prefix; Ollama needs no key.
    createOpenAICompatible({ name: "ollama", baseURL: process.env.OLLAMA_BASE_URL ?? "http://127.0.0.1:11434/v1" });
    model = "ollama/llama3.1";
    break;
  }
  default:
    console.error(`Unknown provider "${choice}". Use one of: openai, anthropic, ollama.`);
    process.exit(2);
}

const agent = new Agent({
  model,
  systemPrompt: "You answer weather questions with the get_weather tool. Be brief.",
  tools: { get_weather: getWeather },
  maxSteps: 3,
  maxRetries: 1,
});

console.log(`Using ${model} (model id sent: ${agent.model.modelId}).`);
try {
  const stream = agent.stream("What's the weather in Oslo and in Lima?");
  for await (const part of stream.fullStream) {
    if (part.type === "text-delta") process.stdout.write(part.delta);
    if (part.type === "tool-call")
      console.log(`[tool call] ${part.toolCall.name}(${JSON.stringify(part.toolCall.arguments)})`);
  }
  const result = await stream.response;
  console.log(`\n(${result.steps.length} steps, ${result.usage.totalTokens} tokens)`);
} catch (error) {
  if (MissingApiKeyError.isInstance(error)) {
    console.error(`${error.message}`);
    process.exit(1);
  }
  if (APICallError.isInstance(error)) {
    const hint = error.statusCode === undefined ? " Is the server running?" : "";
    console.error(
      `${error.provider} failed (status ${error.statusCode ?? "none"}, retryable: ${error.isRetryable}): ${error.message}${hint}`,
    );
    process.exit(1);
  }
  throw error;
}
