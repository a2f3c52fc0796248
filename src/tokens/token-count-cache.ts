import type { AgentMessage } from "../messages/agent-message";
import { utf8ByteLength } from "../messages/utf8-byte-length";
import type { ToolDefinition } from "../models/language-model";
import { type ContentTokens, contentTokenBound, contentTokens, partsFingerprint } from "./content-tokens";
import { type ImageTokenRule, imageTokensFor } from "./image-tokens";
import { countTextTokens, type EncodingName } from "./tokenizer";

/**
 * Token counts per message, so a message is tokenized once in a conversation's life rather than
 * once per request. Two layers:
 * - by object (a WeakMap), for messages without an id: free while the same objects are reused;
 * - by stored identity (a bounded map per encoding keyed by id, each entry checked against the
 *   message's role, content length, a short fingerprint and tool call ids, no key string built):
 *   stores hand out fresh objects on every read, but a stored message never changes under its id.
 * A message with images or files keeps its media tokens under each image rule beside its text
 * count (`Counted`), so one entry answers every model.
 */
const byObject: Record<EncodingName, WeakMap<object, Counted>> = {
  o200k_base: new WeakMap(),
  cl100k_base: new WeakMap(),
};
const byIdentity: Record<EncodingName, Map<string, IdentityEntry>> = { o200k_base: new Map(), cl100k_base: new Map() };
let maxIdentityEntries = 200_000;
const stats = { hits: 0, misses: 0 };
let enabled = true;

/** Per-message overhead of the chat format (OpenAI: `<|im_start|>`, role, `<|im_sep|>`…`<|im_end|>`). */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Added once per request: the reply is primed with `<|im_start|>assistant<|im_sep|>`. */
export const REPLY_PRIMING_TOKENS = 3;
/** Per tool call inside an assistant message (id, type and the function wrapper). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;
/** Per tool definition (name, description and parameters wrapper). */
export const TOOL_DEFINITION_OVERHEAD_TOKENS = 9;

/** A message's count: a number for text-only messages, text and media tokens apart for parts. */
type Counted = number | { text: number; media: ContentTokens["media"] };

function resolveCount(counted: Counted, rule: ImageTokenRule): number {
  return typeof counted === "number" ? counted : counted.text + imageTokensFor(counted.media, rule);
}

/**
 * What a by-id entry was counted from: a stored message never changes under its id, this checks it
 * cheaply. Parts content: `length` -1 and `head` its `partsFingerprint`.
 */
interface IdentityEntry {
  role: string;
  length: number;
  head: string;
  tail: string;
  calls: string;
  count: Counted;
}

function callIds(message: AgentMessage): string {
  if (message.role !== "assistant" || !message.toolCalls || message.toolCalls.length === 0) return "";
  let ids = message.toolCalls[0]!.id;
  for (let index = 1; index < message.toolCalls.length; index++) ids += `,${message.toolCalls[index]!.id}`;
  return ids;
}

function sameIdentity(entry: IdentityEntry, message: AgentMessage): boolean {
  const content = message.content ?? "";
  if (typeof content !== "string") {
    return (
      entry.role === message.role &&
      entry.length === -1 &&
      entry.head === partsFingerprint(content) &&
      entry.calls === callIds(message)
    );
  }
  return (
    entry.role === message.role &&
    entry.length === content.length &&
    content.startsWith(entry.head) &&
    content.endsWith(entry.tail) &&
    entry.calls === callIds(message)
  );
}

/**
 * Tokens of one message in the chat format, before any model factor. Images count by `imageRule`
 * (tokens/image-tokens.ts), files by their estimate (tokens/file-tokens.ts).
 */
export function rawMessageTokens(
  message: AgentMessage,
  encoding: EncodingName,
  imageRule: ImageTokenRule = "openai",
): number {
  if (!enabled) return resolveCount(computeMessageTokens(message, encoding), imageRule);
  const objectCache = byObject[encoding];
  // By id (no key string built: one map per encoding, the entry checked against the message).
  const id = message.id || undefined;
  const identities = byIdentity[encoding];
  if (id === undefined) {
    const cached = objectCache.get(message);
    if (cached !== undefined) {
      stats.hits++;
      return resolveCount(cached, imageRule);
    }
  } else {
    const known = identities.get(id);
    if (known !== undefined && sameIdentity(known, message)) {
      stats.hits++;
      return resolveCount(known.count, imageRule);
    }
  }
  stats.misses++;
  const count = computeMessageTokens(message, encoding);
  // Messages with an id are found by it (a weak entry per fresh object would only feed the GC).
  if (id === undefined) objectCache.set(message, count);
  else {
    if (identities.size >= maxIdentityEntries) {
      // Drop the oldest tenth: Maps iterate in insertion order.
      let toDrop = Math.ceil(maxIdentityEntries / 10);
      for (const oldKey of identities.keys()) {
        identities.delete(oldKey);
        if (--toDrop <= 0) break;
      }
    }
    const content = message.content ?? "";
    const text = typeof content === "string";
    // Re-set (delete first) so a changed message moves to the newest end.
    identities.delete(id);
    identities.set(id, {
      role: message.role,
      length: text ? content.length : -1,
      head: text ? content.slice(0, 8) : partsFingerprint(content),
      tail: text ? content.slice(-8) : "",
      calls: callIds(message),
      count,
    });
  }
  return resolveCount(count, imageRule);
}

function computeMessageTokens(message: AgentMessage, encoding: EncodingName): Counted {
  const content = contentTokens(message.content ?? "", encoding);
  let tokens = MESSAGE_OVERHEAD_TOKENS + content.text;
  if (message.role === "assistant" && message.toolCalls) {
    for (const call of message.toolCalls) {
      tokens +=
        TOOL_CALL_OVERHEAD_TOKENS +
        countTextTokens(call.name, encoding) +
        countTextTokens(safeJson(call.arguments), encoding);
    }
  } else if (message.role === "tool") {
    tokens += 1 + countTextTokens(message.name, encoding);
  }
  return typeof message.content === "string" ? tokens : { text: tokens, media: content.media };
}

const toolCache: Record<EncodingName, WeakMap<object, number>> = {
  o200k_base: new WeakMap(),
  cl100k_base: new WeakMap(),
};

/** Tokens of the tool definitions sent with a request. */
export function rawToolTokens(tools: readonly ToolDefinition[], encoding: EncodingName): number {
  let total = 0;
  for (const definition of tools) {
    let count = toolCache[encoding].get(definition);
    if (count === undefined) {
      count =
        TOOL_DEFINITION_OVERHEAD_TOKENS +
        countTextTokens(definition.name, encoding) +
        countTextTokens(definition.description ?? "", encoding) +
        countTextTokens(safeJson(definition.parameters), encoding);
      toolCache[encoding].set(definition, count);
    }
    total += count;
  }
  return total;
}

/** Tokens of a system prompt sent as the first message. */
export function rawSystemTokens(system: string | undefined, encoding: EncodingName): number {
  if (!system) return 0;
  return MESSAGE_OVERHEAD_TOKENS + countTextTokens(system, encoding);
}

/**
 * An upper bound of `rawMessageTokens(message)` that needs no tokenizer: the same formula with
 * UTF-8 bytes in place of tokens. Both encodings are byte-level BPE, so a token covers at least
 * one byte (special tokens are counted as plain text), and a text never has more tokens than
 * bytes. Windows use it to keep a history that fits even by this bound without loading the
 * tokenizer (a cold load costs ~300 ms).
 */
export function messageTokenBound(message: AgentMessage, imageRule: ImageTokenRule = "openai"): number {
  const text = message.content ?? "";
  let bound = MESSAGE_OVERHEAD_TOKENS;
  if (typeof text === "string") bound += utf8ByteLength(text);
  else {
    const content = contentTokenBound(text);
    bound += content.text + imageTokensFor(content.media, imageRule);
  }
  if (message.role === "assistant" && message.toolCalls) {
    for (const call of message.toolCalls)
      bound += TOOL_CALL_OVERHEAD_TOKENS + utf8ByteLength(call.name) + utf8ByteLength(safeJson(call.arguments));
  } else if (message.role === "tool") {
    bound += 1 + utf8ByteLength(message.name);
  }
  return bound;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * Controls the message count cache (benchmarks and tests). `enabled: false` counts every message
 * afresh; `clear` forgets every count; `maxEntries` bounds the by-id layer.
 */
export function configureTokenCountCache(options: { enabled?: boolean; clear?: boolean; maxEntries?: number }): void {
  if (options.enabled !== undefined) enabled = options.enabled;
  if (options.maxEntries !== undefined) maxIdentityEntries = Math.max(1, options.maxEntries);
  if (options.clear) {
    byIdentity.o200k_base.clear();
    byIdentity.cl100k_base.clear();
    byObject.o200k_base = new WeakMap();
    byObject.cl100k_base = new WeakMap();
    stats.hits = 0;
    stats.misses = 0;
  }
}

/** Hits and misses of the message count cache since the last clear. */
export function tokenCountCacheStats(): { hits: number; misses: number; entries: number } {
  return { ...stats, entries: byIdentity.o200k_base.size + byIdentity.cl100k_base.size };
}
