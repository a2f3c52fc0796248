import { registerProvider } from "../registry/model-registry";
import { createOpenAIProvider, type OpenAIProvider } from "../openai/openai-provider";

export interface OpenAICompatibleProviderSettings {
  /** The provider prefix, e.g. `"ollama"` makes `"ollama/llama3.1"` resolve. */
  name: string;
  /** The server's API root, including `/v1`, e.g. `"http://localhost:11434/v1"`. */
  baseURL: string;
  /** API key, when the server wants one. Without it no real key is sent. */
  apiKey?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of the SDK on 408/409/429/5xx and connection errors (the one retry layer). @default 2 */
  maxRetries?: number;
  /** Request timeout in milliseconds. @default 600000 */
  timeout?: number;
  /**
   * Sends `stream_options: { include_usage: true }` so streams report usage. Turn it off for a
   * server that rejects the field. @default true
   */
  includeStreamUsage?: boolean;
  /** Registers `name` as a model prefix. @default true */
  register?: boolean;
  /** A `fetch` to use instead of the global one. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A provider for any server that speaks the OpenAI Chat Completions API (Ollama, vLLM,
 * llama.cpp's server, LM Studio, …), on the official `openai` SDK. Registers `name` as a prefix,
 * so `new Agent({ model: "ollama/llama3.1" })` works; the returned provider also makes models
 * directly (`ollama("llama3.1")`).
 */
export function createOpenAICompatible(settings: OpenAICompatibleProviderSettings): OpenAIProvider {
  const provider = createOpenAIProvider(
    {
      baseURL: settings.baseURL,
      ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
      ...(settings.headers === undefined ? {} : { headers: settings.headers }),
      ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
      ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
      ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
    },
    {
      name: settings.name,
      requireApiKey: false,
      // Never read from the environment: a compatible server's key is passed explicitly.
      apiKeyVariable: "",
      factoryName: "createOpenAICompatible",
      maxTokensField: "max_tokens",
      includeStreamUsage: settings.includeStreamUsage ?? true,
    },
  );
  if (settings.register ?? true) registerProvider(settings.name, provider);
  return provider;
}
