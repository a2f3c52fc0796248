import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { utf8ByteLength } from "./utf8-byte-length";

/** A JSON value: what an app may put in a message's metadata. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A step's token usage as its message keeps it (a model's `LanguageModelUsage`). */
export interface MessageUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  cachedInputTokens?: number;
  cacheCreationInputTokens?: number;
  reasoningTokens?: number;
}

/** agentcore's own fields of a stored assistant message: the model call that wrote it. */
export interface StepMetadata {
  /** The model's provider, e.g. `"openai"`. */
  provider: string;
  /** The model's id, e.g. `"gpt-4o"`. */
  modelId: string;
  /** The step's usage (every call of the step: a structured-output retry's included). */
  usage: MessageUsage;
  /** Why the model stopped (`FinishReason`). */
  finishReason: string;
  /** How long the model call took, in milliseconds (a streamed call: until its last part). */
  durationMs: number;
}

/**
 * A stored assistant message's `metadata` (docs/messages.md, "Message metadata"): agentcore's own
 * fields under the reserved key `agentcore`, and the app's own fields (`run({ metadata })`,
 * `streamText({ messageMetadata })`) beside it, JSON. Never sent to a model.
 */
export interface MessageMetadata {
  agentcore?: StepMetadata;
  [key: string]: unknown;
}

/** The sum of two usages; a cache or reasoning count is present when either has it (`addUsage`). */
export function sumUsage(total: MessageUsage, usage: MessageUsage): MessageUsage {
  const sum: MessageUsage = {
    inputTokens: total.inputTokens + usage.inputTokens,
    outputTokens: total.outputTokens + usage.outputTokens,
    totalTokens: total.totalTokens + usage.totalTokens,
  };
  if (total.cachedInputTokens !== undefined || usage.cachedInputTokens !== undefined)
    sum.cachedInputTokens = (total.cachedInputTokens ?? 0) + (usage.cachedInputTokens ?? 0);
  if (total.cacheCreationInputTokens !== undefined || usage.cacheCreationInputTokens !== undefined)
    sum.cacheCreationInputTokens = (total.cacheCreationInputTokens ?? 0) + (usage.cacheCreationInputTokens ?? 0);
  if (total.reasoningTokens !== undefined || usage.reasoningTokens !== undefined)
    sum.reasoningTokens = (total.reasoningTokens ?? 0) + (usage.reasoningTokens ?? 0);
  return sum;
}

/** Most bytes (UTF-8 of its JSON) the app's metadata of a run may take: 16 KiB. */
export const MAX_MESSAGE_METADATA_BYTES = 16 * 1024;
/** Deepest nesting of objects and arrays in the app's metadata. */
export const MAX_MESSAGE_METADATA_DEPTH = 32;

/** Keys a prototype would read: never a metadata key (the AI SDK's `useChat` drops them too). */
const prototypeKeys: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

/**
 * The app's metadata of a run (`run({ metadata })`, `streamText({ messageMetadata })`), checked and
 * copied: a plain object of JSON values (plain objects, arrays, strings, finite numbers, booleans,
 * null), no prototype key, no key `agentcore` at its top (agentcore's own), at most
 * `MAX_MESSAGE_METADATA_DEPTH` deep and `MAX_MESSAGE_METADATA_BYTES` as JSON. Anything else is an
 * `InvalidArgumentError` naming `argument` and the path of the problem.
 */
export function validateMetadataArgument(value: unknown, argument = "metadata"): Record<string, JsonValue> {
  const fail = (message: string): never => {
    throw new InvalidArgumentError({ argument, value, message: `${argument}: ${message}` });
  };
  if (!isPlainObject(value)) return fail(`expected a plain object of JSON values, got ${describe(value)}.`);
  if (Object.hasOwn(value, "agentcore"))
    fail(
      "the key \"agentcore\" is reserved for agentcore's own fields (model, usage, finish reason, duration); put the app's fields under another key.",
    );
  const read = copyJson(value, argument, 0);
  if ("problem" in read) return fail(read.problem);
  const bytes = utf8ByteLength(JSON.stringify(read.value));
  if (bytes > MAX_MESSAGE_METADATA_BYTES)
    fail(
      `${bytes} bytes as JSON; the limit is ${MAX_MESSAGE_METADATA_BYTES} (16 KiB). Keep large data elsewhere and put its id here.`,
    );
  return read.value as Record<string, JsonValue>;
}

/**
 * A message's `metadata` as read from outside (a store, a message given to a run): a copy when it is
 * a plain object of JSON values, else undefined (the message schema then names the problem).
 */
export function readMessageMetadata(value: unknown): MessageMetadata | undefined {
  if (!isPlainObject(value)) return undefined;
  const read = copyJson(value, "metadata", 0);
  return "problem" in read ? undefined : (read.value as MessageMetadata);
}

/** What is wrong with a message's `metadata` as read from outside, for the message schema's issue. */
export function metadataProblem(value: unknown): string {
  if (!isPlainObject(value)) return `expected a plain object of JSON values, got ${describe(value)}`;
  const read = copyJson(value, "metadata", 0);
  return "problem" in read ? read.problem : "invalid metadata";
}

/**
 * The messages as a model gets them: without `metadata` (it is the app's and agentcore's record,
 * never the model's). The same array when no message has any.
 */
export function withoutMetadata<Message extends object>(messages: Message[]): Message[] {
  let stripped: Message[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index] as Message & { metadata?: unknown };
    if (message.metadata === undefined) continue;
    stripped ??= messages.slice();
    const { metadata: _metadata, ...rest } = message;
    stripped[index] = rest as Message;
  }
  return stripped ?? messages;
}

/** A deep copy of a JSON value, or the first problem found (its path). */
function copyJson(value: unknown, path: string, depth: number): { value: JsonValue } | { problem: string } {
  if (value === null || typeof value === "string" || typeof value === "boolean") return { value };
  if (typeof value === "number")
    return Number.isFinite(value) ? { value } : { problem: `${path} is ${value}: only finite numbers are JSON.` };
  if (typeof value !== "object") return { problem: `${path} is ${describe(value)}, not a JSON value.` };
  if (depth >= MAX_MESSAGE_METADATA_DEPTH)
    return { problem: `${path} is nested deeper than ${MAX_MESSAGE_METADATA_DEPTH} levels.` };
  if (Array.isArray(value)) {
    const copy: JsonValue[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copyJson(value[index], `${path}[${index}]`, depth + 1);
      if ("problem" in item) return item;
      copy[index] = item.value;
    }
    return { value: copy };
  }
  if (!isPlainObject(value)) return { problem: `${path} is ${describe(value)}, not a plain object.` };
  const copy: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    if (prototypeKeys.has(key)) return { problem: `${path} has the key "${key}", which is not allowed.` };
    const item = copyJson((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if ("problem" in item) return item;
    copy[key] = item.value;
  }
  return { value: copy };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return `an instance of ${value.constructor?.name ?? "a class"}`;
  return typeof value;
}
