// A loopback Anthropic Messages server that implements the prompt-caching rule, for the caching
// wire tests and bench/prompt-cache.bench.ts. It answers every request (JSON, or SSE when
// `stream: true`) with a usage computed the way Anthropic documents it:
//
// - The prompt is read as blocks in the order tools → system → messages (a tool definition, a
//   system text block, a content block of a message; a string is one text block).
// - A block with `cache_control` is a breakpoint; more than 4 is a 400 `invalid_request_error`,
//   as the API answers.
// - At each breakpoint the prefix up to it is looked up in the cache, and so are the prefixes
//   ending at each of the 20 blocks before it (the documented lookback); the longest prefix found
//   is read from the cache (`cache_read_input_tokens`).
// - The prefix up to each breakpoint is then written to the cache when it has at least
//   `minCacheableTokens` tokens (1024 by default, Claude Sonnet's minimum); the tokens from the
//   read prefix to the last breakpoint written are `cache_creation_input_tokens`, the rest
//   `input_tokens`. Entries never expire (the 5-minute TTL is longer than any test or bench run).
//
// Tokens are estimated, not tokenized: a block counts ceil(characters of its JSON / 4), the
// usual four characters a token of English text. Two prefixes are the same when their blocks
// (with their message's role, without `cache_control`) are the same JSON.
import { createHash } from "node:crypto";
import { FakeLlmServer, type RecordedRequest, type ScriptedResponse } from "./fake-llm-server";
import { anthropicMessage, anthropicStream, type ScriptedAnswer } from "./wire-formats";

/** Anthropic's documented maximum of blocks with `cache_control` in one request. */
export const MAX_CACHE_BREAKPOINTS = 4;
/** Blocks before a breakpoint that are checked for an earlier cached prefix. */
export const LOOKBACK_BLOCKS = 20;

export interface CacheAccount {
  /** Every input token of the request (uncached, read and written). */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Blocks that carried `cache_control`. */
  breakpoints: number;
}

export interface AnthropicCacheServerOptions {
  /** Smallest prefix, in estimated tokens, that is cached. @default 1024 */
  minCacheableTokens?: number;
  /** The answer to a request. @default a short fixed text */
  answer?: (request: RecordedRequest, index: number) => ScriptedAnswer;
}

export class AnthropicCacheServer {
  /** The accounting of each request answered, in order. */
  readonly accounts: CacheAccount[] = [];
  private readonly cache = new Set<string>();

  private constructor(
    readonly server: FakeLlmServer,
    private readonly minCacheableTokens: number,
  ) {}

  static async start(options: AnthropicCacheServerOptions = {}): Promise<AnthropicCacheServer> {
    let self: AnthropicCacheServer | undefined;
    const answer = options.answer ?? (() => ({ text: "Noted." }));
    const server = await FakeLlmServer.start({
      fallback: (request) => self!.respond(request, answer(request, self!.accounts.length)),
    });
    self = new AnthropicCacheServer(server, options.minCacheableTokens ?? 1024);
    return self;
  }

  get url(): string {
    return this.server.url;
  }

  get requests(): RecordedRequest[] {
    return this.server.requests;
  }

  /** Input tokens over every request so far, and the share read from the cache. */
  totals(): { inputTokens: number; cacheReadTokens: number; cacheWriteTokens: number; readShare: number } {
    let inputTokens = 0;
    let cacheReadTokens = 0;
    let cacheWriteTokens = 0;
    for (const account of this.accounts) {
      inputTokens += account.inputTokens;
      cacheReadTokens += account.cacheReadTokens;
      cacheWriteTokens += account.cacheWriteTokens;
    }
    return {
      inputTokens,
      cacheReadTokens,
      cacheWriteTokens,
      readShare: inputTokens ? cacheReadTokens / inputTokens : 0,
    };
  }

  /** Forgets the cache and the accounts (a new conversation in a bench). */
  reset(): void {
    this.cache.clear();
    this.accounts.length = 0;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private respond(request: RecordedRequest, answer: ScriptedAnswer): ScriptedResponse {
    const blocks = promptBlocks(request.body);
    const breakpoints = blocks.flatMap((block, index) => (block.breakpoint ? [index] : []));
    if (breakpoints.length > MAX_CACHE_BREAKPOINTS) {
      return {
        kind: "json",
        status: 400,
        headers: { "x-should-retry": "false" },
        body: {
          type: "error",
          error: {
            type: "invalid_request_error",
            message: `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints.length}.`,
          },
        },
      };
    }
    const hashes: string[] = [];
    const tokensUpTo: number[] = [];
    let hash = "";
    let tokens = 0;
    for (const block of blocks) {
      hash = createHash("sha256").update(hash).update(block.key).digest("hex");
      tokens += block.tokens;
      hashes.push(hash);
      tokensUpTo.push(tokens);
    }
    let read = 0;
    for (const breakpoint of breakpoints) {
      for (let index = breakpoint; index >= Math.max(0, breakpoint - LOOKBACK_BLOCKS); index--) {
        if (this.cache.has(hashes[index]!)) {
          read = Math.max(read, tokensUpTo[index]!);
          break;
        }
      }
    }
    let written = read;
    for (const breakpoint of breakpoints) {
      if (tokensUpTo[breakpoint]! < this.minCacheableTokens) continue;
      this.cache.add(hashes[breakpoint]!);
      written = Math.max(written, tokensUpTo[breakpoint]!);
    }
    const account = {
      inputTokens: tokens,
      cacheReadTokens: read,
      cacheWriteTokens: written - read,
      breakpoints: breakpoints.length,
    };
    this.accounts.push(account);
    const scripted: ScriptedAnswer = {
      ...answer,
      usage: {
        inputTokens: tokens - written,
        outputTokens: answer.usage?.outputTokens ?? Math.ceil((answer.text ?? "").length / 4),
        cacheReadTokens: read,
        cacheWriteTokens: written - read,
      },
    };
    const model = typeof request.body?.model === "string" ? request.body.model : undefined;
    return request.body?.stream === true
      ? { kind: "sse", events: anthropicStreamWith(scripted, model) }
      : anthropicMessage(scripted, model);
  }
}

function anthropicStreamWith(answer: ScriptedAnswer, model: string | undefined) {
  const response = anthropicStream(answer);
  if (response.kind !== "sse") throw new Error("anthropicStream gives server-sent events");
  if (model === undefined) return response.events;
  return response.events.map((event) =>
    (event.data as { type?: string }).type === "message_start"
      ? {
          ...event,
          data: { ...(event.data as object), message: { ...(event.data as { message: object }).message, model } },
        }
      : event,
  );
}

interface PromptBlock {
  key: string;
  tokens: number;
  breakpoint: boolean;
}

/** The request's prompt as cacheable blocks, in the order Anthropic reads it. */
export function promptBlocks(body: {
  tools?: unknown[];
  system?: string | unknown[];
  messages?: { role: string; content: string | unknown[] }[];
}): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  const add = (kind: string, value: unknown) => {
    const breakpoint =
      value !== null && typeof value === "object" && (value as { cache_control?: unknown }).cache_control != null;
    const { cache_control: _ignored, ...rest } = (
      value !== null && typeof value === "object" ? value : { text: value }
    ) as Record<string, unknown>;
    const json = JSON.stringify(rest);
    blocks.push({ key: `${kind}:${json}`, tokens: Math.ceil(json.length / 4), breakpoint });
  };
  for (const tool of body.tools ?? []) add("tool", tool);
  if (typeof body.system === "string") add("system", { type: "text", text: body.system });
  else for (const block of body.system ?? []) add("system", block);
  for (const message of body.messages ?? []) {
    if (typeof message.content === "string") add(message.role, { type: "text", text: message.content });
    else for (const block of message.content ?? []) add(message.role, block);
  }
  return blocks;
}

/** How many blocks of a request body carry `cache_control`. */
export function countCacheBreakpoints(body: Parameters<typeof promptBlocks>[0]): number {
  return promptBlocks(body).filter((block) => block.breakpoint).length;
}
