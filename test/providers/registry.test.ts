// "provider/model" strings for the built-in providers and OpenAI-compatible servers, configured
// from the environment the way a new user would.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Agent } from "../../src/agent/agent";
import { MissingApiKeyError } from "../../src/errors/missing-api-key-error";
import { NoSuchProviderError } from "../../src/errors/no-such-provider-error";
import { listProviders, resolveLanguageModel, unregisterProvider } from "../../src/models/registry/model-registry";
import { createOpenAICompatible } from "../../src/models/openai-compatible/create-openai-compatible";
import { FakeLlmServer } from "../servers/fake-llm-server";
import { anthropicMessage, openaiCompletion, openaiStream } from "../servers/wire-formats";
import { weather } from "./helpers";

let server: FakeLlmServer;
beforeAll(async () => {
  server = await FakeLlmServer.start();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => {
  vi.unstubAllEnvs();
  server.requests.length = 0;
});

describe("built-in provider prefixes", () => {
  it("registers openai and anthropic without loading or checking anything", () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    expect(listProviders()).toEqual(expect.arrayContaining(["anthropic", "openai"]));
    const agent = new Agent({ model: "openai/gpt-4o-mini" });
    expect(agent.model.provider).toBe("openai");
    expect(agent.model.modelId).toBe("gpt-4o-mini");
    const claude = resolveLanguageModel("anthropic/claude-sonnet-4");
    expect(claude.provider).toBe("anthropic");
    expect(claude.modelId).toBe("claude-sonnet-5-5");
  });

  it("reports a missing key at the first call of a string-resolved model", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "");
    vi.stubEnv("ANTHROPIC_AUTH_TOKEN", "");
    const agent = new Agent({ model: "anthropic/claude-haiku-5-5" });
    await expect(agent.run("Hi")).rejects.toSatisfy(
      (error) => MissingApiKeyError.isInstance(error) && error.environmentVariable === "ANTHROPIC_API_KEY",
    );
  });

  it("uses ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment", async () => {
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant-env");
    vi.stubEnv("ANTHROPIC_BASE_URL", server.url);
    server.enqueue(anthropicMessage({ text: "from env" }));
    const result = await new Agent({ model: "anthropic/claude-sonnet-5-5" }).run("Hi");
    expect(result.text).toBe("from env");
    expect(server.requests[0]!.path).toBe("/v1/messages");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer sk-ant-env");
  });

  it("as a new user: OPENAI_BASE_URL at a local server, no key, a run that calls a tool", async () => {
    vi.stubEnv("OPENAI_API_KEY", "");
    vi.stubEnv("OPENAI_BASE_URL", `${server.url}/v1`);
    server.enqueue(
      openaiStream({ toolCalls: [{ id: "call_local", name: "get_weather", arguments: { city: "Oslo" } }] }),
      openaiStream({ text: "It is 4°C in Oslo." }),
    );
    const agent = new Agent({ model: "openai/gpt-4o-mini", tools: { get_weather: weather } });
    const result = await agent.stream("Weather in Oslo?").response;
    expect(result.text).toBe("It is 4°C in Oslo.");
    expect(result.toolResults).toEqual([
      {
        toolCallId: "call_local",
        toolName: "get_weather",
        result: { city: "Oslo", temperature: "4°C" },
        isError: false,
      },
    ]);
    expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/v1/chat/completions"]);
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({
      role: "tool",
      tool_call_id: "call_local",
      content: '{"city":"Oslo","temperature":"4°C"}',
    });
  });
});

describe("createOpenAICompatible", () => {
  it('registers a prefix so "ollama/llama3.1" works, with the server\'s own settings', async () => {
    const ollama = createOpenAICompatible({
      name: "ollama",
      baseURL: `${server.url}/v1`,
      headers: { "x-client": "agentcore-test" },
    });
    try {
      expect(listProviders()).toContain("ollama");
      server.enqueue(openaiCompletion({ text: "llama says hi" }, "llama3.1"));
      const agent = new Agent({ model: "ollama/llama3.1", maxOutputTokens: 64 });
      expect(agent.model.provider).toBe("ollama");
      const result = await agent.run("Hi");
      expect(result.text).toBe("llama says hi");
      const [request] = server.requests;
      expect(request!.headers["x-client"]).toBe("agentcore-test");
      expect(request!.headers.authorization).not.toContain("sk-");
      expect(request!.body).toEqual({ model: "llama3.1", messages: [{ role: "user", content: "Hi" }], max_tokens: 64 });
      expect(ollama("qwen2.5").provider).toBe("ollama");
    } finally {
      unregisterProvider("ollama");
    }
    expect(() => new Agent({ model: "ollama/llama3.1" })).toThrow(NoSuchProviderError);
  });

  it("sends the key it is given and never reads OPENAI_API_KEY", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-openai-should-not-leak");
    const vllm = createOpenAICompatible({
      name: "vllm",
      baseURL: `${server.url}/v1`,
      apiKey: "vllm-token",
      register: false,
    });
    expect(listProviders()).not.toContain("vllm");
    server.enqueue(openaiCompletion({ text: "ok" }));
    await new Agent({ model: vllm("meta-llama/Llama-3.1-8B-Instruct") }).run("Hi");
    expect(server.requests[0]!.headers.authorization).toBe("Bearer vllm-token");
    expect(server.requests[0]!.body.model).toBe("meta-llama/Llama-3.1-8B-Instruct");

    const local = createOpenAICompatible({ name: "lmstudio", baseURL: `${server.url}/v1`, register: false });
    server.enqueue(openaiCompletion({ text: "ok" }));
    await new Agent({ model: local("any") }).run("Hi");
    expect(server.requests[1]!.headers.authorization).not.toContain("sk-openai-should-not-leak");
  });
});
