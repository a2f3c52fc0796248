import type OpenAI from "openai";
import { modelIdArgument, type ModelIdArgument } from "../model-id-argument";
import { MissingApiKeyError } from "../../errors/missing-api-key-error";
import type { EmbeddingModel } from "../embedding-model";
import type { LanguageModel } from "../language-model";
import { OpenAIChatLanguageModel } from "./openai-chat-language-model";
import {
  DEFAULT_OPENAI_EMBEDDING_MODEL,
  OpenAIEmbeddingModel,
  type OpenAIEmbeddingModelOptions,
} from "./openai-embedding-model";
import { readEnv } from "../read-env";

export interface OpenAIProviderSettings {
  /** API key. @default process.env.OPENAI_API_KEY */
  apiKey?: string;
  /**
   * API root, including `/v1`. Point it at any OpenAI-compatible server.
   * @default process.env.OPENAI_BASE_URL ?? "https://api.openai.com/v1"
   */
  baseURL?: string;
  /** OpenAI organization id. @default process.env.OPENAI_ORG_ID */
  organization?: string;
  /** OpenAI project id. @default process.env.OPENAI_PROJECT_ID */
  project?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of the SDK on 408/409/429/5xx and connection errors (the one retry layer). @default 2 */
  maxRetries?: number;
  /** Request timeout in milliseconds. @default 600000 (the SDK's) */
  timeout?: number;
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Makes OpenAI models from their ids: `provider("gpt-4o")`, `provider.embedding("text-embedding-3-small")`.
 * (Its public types do not mention the SDK's, so type-checking a consumer stays fast.)
 */
export interface OpenAIProvider {
  /** A Chat Completions model: `openai("gpt-4o")` or `openai({ model: "gpt-4o" })`. */
  (modelId: ModelIdArgument): LanguageModel;
  /** Provider id, `"openai"` (or the name given to `createOpenAICompatible`). */
  readonly name: string;
  /** A Chat Completions model. */
  chat(modelId: ModelIdArgument): LanguageModel;
  /** An embedding model, e.g. `"text-embedding-3-small"`. @default "text-embedding-3-small" */
  embedding(modelId?: string, options?: OpenAIEmbeddingModelOptions): EmbeddingModel;
}

/** Internal knobs shared with `createOpenAICompatible`. */
export interface OpenAIProviderInternals {
  name: string;
  /** Whether a missing key is an error. */
  requireApiKey: boolean | (() => boolean);
  apiKeyVariable: string;
  factoryName: string;
  maxTokensField: "max_completion_tokens" | "max_tokens";
  includeStreamUsage: boolean;
}

const DEFAULT_OPENAI_URL = "https://api.openai.com/v1";

/**
 * Creates an OpenAI provider. Nothing is loaded or checked until its first call: the `openai`
 * SDK is imported and its client made once, then shared by every model of this provider. A
 * missing key is a `MissingApiKeyError` at that first call. With a `baseURL` (or
 * `OPENAI_BASE_URL`) pointing elsewhere than api.openai.com, a key is optional (local servers).
 */
export function createOpenAI(settings: OpenAIProviderSettings = {}): OpenAIProvider {
  return createOpenAIProvider(settings, {
    name: "openai",
    // A key is required for OpenAI itself, optional for a server elsewhere (a local model).
    requireApiKey: () => {
      const baseURL = settings.baseURL ?? readEnv("OPENAI_BASE_URL");
      if (baseURL === undefined) return true;
      try {
        return new URL(baseURL, DEFAULT_OPENAI_URL).hostname === "api.openai.com";
      } catch {
        return true;
      }
    },
    apiKeyVariable: "OPENAI_API_KEY",
    factoryName: "createOpenAI",
    maxTokensField: "max_completion_tokens",
    includeStreamUsage: true,
  });
}

/** @internal */
export function createOpenAIProvider(
  settings: OpenAIProviderSettings,
  internals: OpenAIProviderInternals,
): OpenAIProvider {
  let client: Promise<OpenAI> | undefined;
  const getClient = (): Promise<OpenAI> => {
    client ??= makeClient(settings, internals).catch((error: unknown) => {
      client = undefined; // a key set later is picked up by the next call
      throw error;
    });
    return client;
  };
  const chatConfig = {
    provider: internals.name,
    getClient,
    baseURL: () => settings.baseURL ?? readEnv("OPENAI_BASE_URL") ?? DEFAULT_OPENAI_URL,
    maxTokensField: internals.maxTokensField,
    includeStreamUsage: internals.includeStreamUsage,
    apiKeyVariable: internals.apiKeyVariable,
  };
  const chat = (modelId: ModelIdArgument) =>
    new OpenAIChatLanguageModel(modelIdArgument(modelId, internals.name), chatConfig);
  const provider = Object.assign((modelId: ModelIdArgument) => chat(modelId), {
    chat,
    embedding: (modelId: string = DEFAULT_OPENAI_EMBEDDING_MODEL, options?: OpenAIEmbeddingModelOptions) =>
      new OpenAIEmbeddingModel(modelId, { provider: internals.name, getClient }, options),
  });
  Object.defineProperty(provider, "name", { value: internals.name });
  return provider as OpenAIProvider;
}

async function makeClient(settings: OpenAIProviderSettings, internals: OpenAIProviderInternals): Promise<OpenAI> {
  let apiKey = settings.apiKey ?? readEnv(internals.apiKeyVariable);
  if (!apiKey) {
    const required =
      typeof internals.requireApiKey === "function" ? internals.requireApiKey() : internals.requireApiKey;
    if (required) {
      throw new MissingApiKeyError({
        provider: internals.name,
        environmentVariable: internals.apiKeyVariable,
        factory: internals.factoryName,
      });
    }
    // Local servers take no key; the SDK insists on one, so send a placeholder.
    apiKey = "no-key";
  }
  const { default: OpenAIClient } = await import("openai");
  return new OpenAIClient({
    apiKey,
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    ...(settings.organization === undefined ? {} : { organization: settings.organization }),
    ...(settings.project === undefined ? {} : { project: settings.project }),
    ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  });
}

/** The default OpenAI provider, configured from `OPENAI_API_KEY` / `OPENAI_BASE_URL`. `"openai/<model>"` strings use it. */
export const openai: OpenAIProvider = /* @__PURE__ */ createOpenAI();
