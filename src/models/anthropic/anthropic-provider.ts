import type Anthropic from "@anthropic-ai/sdk";
import { modelIdArgument, type ModelIdArgument } from "../model-id-argument";
import { MissingApiKeyError } from "../../errors/missing-api-key-error";
import type { LanguageModel } from "../language-model";
import { AnthropicMessagesLanguageModel } from "./anthropic-messages-language-model";
import { ANTHROPIC_MODEL_ALIASES, defaultAnthropicMaxTokens, resolveAnthropicModelId } from "./anthropic-model-ids";
import { readEnv } from "../read-env";

export interface AnthropicProviderSettings {
  /** API key, sent by the SDK. @default process.env.ANTHROPIC_API_KEY */
  apiKey?: string;
  /** A bearer token instead of an API key. @default process.env.ANTHROPIC_AUTH_TOKEN */
  authToken?: string;
  /** API root, without `/v1`. @default process.env.ANTHROPIC_BASE_URL ?? "https://api.anthropic.com" */
  baseURL?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** Retries of the SDK on 408/409/429/5xx and connection errors (the one retry layer). @default 2 */
  maxRetries?: number;
  /** Request timeout in milliseconds. @default 600000 (the SDK's) */
  timeout?: number;
  /**
   * Short names and the ids they resolve to, merged over `ANTHROPIC_MODEL_ALIASES` (an entry
   * mapping a name to itself turns its alias off).
   */
  modelAliases?: Record<string, string>;
  /** `max_tokens` when a call sets no `maxOutputTokens`. @default by model family, see ANTHROPIC_DEFAULT_MAX_TOKENS */
  defaultMaxTokens?: number | ((modelId: string) => number);
  /** A `fetch` to use instead of the global one (proxies, tests). */
  fetch?: typeof globalThis.fetch;
  /**
   * Prompt caching: `false` sends no `cache_control` breakpoints, whatever the agent asks (for an
   * Anthropic-compatible server that refuses them). Agents turn it off with their own
   * `cacheControl: false` (docs/prompt-caching.md). @default true
   */
  cacheControl?: boolean;
}

/**
 * Makes Claude models from their ids or short names: `provider("claude-sonnet-4")`; the model's
 * `modelId` is the resolved id. (Its public types do not mention the SDK's.)
 */
export interface AnthropicProvider {
  /** A Messages API model: `anthropic("claude-sonnet-4-5")` or `anthropic({ model: "claude-sonnet-4-5" })`. */
  (modelId: ModelIdArgument): LanguageModel;
  /** Provider id, `"anthropic"`. */
  readonly name: string;
  /** A Messages API model. */
  messages(modelId: ModelIdArgument): LanguageModel;
}

/**
 * Creates an Anthropic provider. Nothing is loaded or checked until its first call: the SDK is
 * imported and its client made once, then shared by every model of this provider. A missing key
 * is a `MissingApiKeyError` at that first call.
 */
export function createAnthropic(settings: AnthropicProviderSettings = {}): AnthropicProvider {
  let client: Promise<Anthropic> | undefined;
  const getClient = (): Promise<Anthropic> => {
    client ??= makeClient(settings).catch((error: unknown) => {
      client = undefined; // a key set later is picked up by the next call
      throw error;
    });
    return client;
  };
  const aliases = { ...ANTHROPIC_MODEL_ALIASES, ...settings.modelAliases };
  const { defaultMaxTokens } = settings;
  const config = {
    provider: "anthropic",
    getClient,
    baseURL: () => settings.baseURL ?? readEnv("ANTHROPIC_BASE_URL") ?? "https://api.anthropic.com",
    defaultMaxTokens:
      typeof defaultMaxTokens === "number" ? () => defaultMaxTokens : (defaultMaxTokens ?? defaultAnthropicMaxTokens),
    ...(settings.cacheControl === false ? { cacheControl: false } : {}),
  };
  const messages = (input: ModelIdArgument) => {
    const modelId = modelIdArgument(input, "anthropic");
    return new AnthropicMessagesLanguageModel(
      settings.modelAliases ? resolveAnthropicModelId(modelId, aliases) : resolveAnthropicModelId(modelId),
      config,
    );
  };
  const provider = Object.assign((modelId: ModelIdArgument) => messages(modelId), { messages });
  Object.defineProperty(provider, "name", { value: "anthropic" });
  return provider as AnthropicProvider;
}

async function makeClient(settings: AnthropicProviderSettings): Promise<Anthropic> {
  const apiKey = settings.apiKey ?? readEnv("ANTHROPIC_API_KEY");
  const authToken = apiKey ? undefined : (settings.authToken ?? readEnv("ANTHROPIC_AUTH_TOKEN"));
  if (!apiKey && !authToken) {
    throw new MissingApiKeyError({
      provider: "anthropic",
      environmentVariable: "ANTHROPIC_API_KEY",
      factory: "createAnthropic",
    });
  }
  const { default: AnthropicClient } = await import("@anthropic-ai/sdk");
  return new AnthropicClient({
    ...(apiKey ? { apiKey } : { authToken: authToken! }),
    ...(settings.baseURL === undefined ? {} : { baseURL: settings.baseURL }),
    ...(settings.headers === undefined ? {} : { defaultHeaders: settings.headers }),
    ...(settings.maxRetries === undefined ? {} : { maxRetries: settings.maxRetries }),
    ...(settings.timeout === undefined ? {} : { timeout: settings.timeout }),
    ...(settings.fetch === undefined ? {} : { fetch: settings.fetch }),
  });
}

/** The default Anthropic provider, configured from `ANTHROPIC_API_KEY` / `ANTHROPIC_BASE_URL`. `"anthropic/<model>"` strings use it. */
export const anthropic: AnthropicProvider = /* @__PURE__ */ createAnthropic();
