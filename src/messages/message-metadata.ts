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

/**
 * A model's usage as a message's metadata keeps it: the counts that are finite numbers, each one
 * present (a model of the app's own may report `undefined` or `NaN`, which is not JSON).
 */
export function messageUsage(usage: MessageUsage): MessageUsage {
  const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
  const kept: MessageUsage = {
    inputTokens: count(usage.inputTokens) ?? 0,
    outputTokens: count(usage.outputTokens) ?? 0,
    totalTokens: count(usage.totalTokens) ?? 0,
  };
  const cached = count(usage.cachedInputTokens);
  if (cached !== undefined) kept.cachedInputTokens = cached;
  const written = count(usage.cacheCreationInputTokens);
  if (written !== undefined) kept.cacheCreationInputTokens = written;
  const reasoning = count(usage.reasoningTokens);
  if (reasoning !== undefined) kept.reasoningTokens = reasoning;
  return kept;
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
  // The common case, only agentcore's fields as a run writes them, copied by their known shape.
  const step = (value as MessageMetadata).agentcore;
  if (step !== undefined && onlyKey(value, "agentcore")) {
    const copy = copyStepMetadata(step);
    if (copy !== undefined) return { agentcore: copy };
  }
  const copy = copyValue(value, 0);
  return copy === INVALID ? undefined : (copy as MessageMetadata);
}

/** `StepMetadata` as a run writes it, copied; undefined for any other shape (then copied as JSON). */
function copyStepMetadata(value: unknown): StepMetadata | undefined {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype)
    return undefined;
  const { provider, modelId, usage, finishReason, durationMs } = value as Record<string, unknown>;
  if (typeof provider !== "string" || typeof modelId !== "string" || typeof finishReason !== "string") return undefined;
  if (!isCount(durationMs) || typeof usage !== "object" || usage === null) return undefined;
  if (Object.getPrototypeOf(usage) !== Object.prototype || Object.keys(value).length !== 5) return undefined;
  const { inputTokens, outputTokens, totalTokens, cachedInputTokens, cacheCreationInputTokens, reasoningTokens } =
    usage as Record<string, unknown>;
  if (!isCount(inputTokens) || !isCount(outputTokens) || !isCount(totalTokens)) return undefined;
  const copy: MessageUsage = { inputTokens, outputTokens, totalTokens };
  let keys = 3;
  if (cachedInputTokens !== undefined) {
    if (!isCount(cachedInputTokens)) return undefined;
    copy.cachedInputTokens = cachedInputTokens;
    keys++;
  }
  if (cacheCreationInputTokens !== undefined) {
    if (!isCount(cacheCreationInputTokens)) return undefined;
    copy.cacheCreationInputTokens = cacheCreationInputTokens;
    keys++;
  }
  if (reasoningTokens !== undefined) {
    if (!isCount(reasoningTokens)) return undefined;
    copy.reasoningTokens = reasoningTokens;
    keys++;
  }
  if (Object.keys(usage).length !== keys) return undefined;
  return { provider, modelId, usage: copy, finishReason, durationMs };
}

function isCount(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

/** `record` has exactly one own key, `key`. */
function onlyKey(record: object, key: string): boolean {
  let count = 0;
  for (const own in record) {
    if (own !== key || ++count > 1) return false;
  }
  return count === 1;
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

/** What `copyValue` gives for a value that is not JSON (the problem is then found by `findProblem`). */
const INVALID: unique symbol = Symbol("invalid");

/**
 * A deep copy of a JSON value, or the first problem found (its path). Every turn reads its stored
 * assistant messages' metadata through here: the copy is made without paths or wrappers, and the
 * problem looked for again, with paths, only when there is one.
 */
function copyJson(value: unknown, path: string, depth: number): { value: JsonValue } | { problem: string } {
  const copy = copyValue(value, depth);
  return copy === INVALID ? { problem: findProblem(value, path, depth) ?? `${path} is not JSON.` } : { value: copy };
}

function copyValue(value: unknown, depth: number): JsonValue | typeof INVALID {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : INVALID;
    case "object":
      break;
    default:
      return INVALID;
  }
  if (value === null) return null;
  if (depth >= MAX_MESSAGE_METADATA_DEPTH) return INVALID;
  if (Array.isArray(value)) {
    const copy: JsonValue[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = copyValue(value[index], depth + 1);
      if (item === INVALID) return INVALID;
      copy[index] = item;
    }
    return copy;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return INVALID;
  const copy: Record<string, JsonValue> = {};
  for (const key in value) {
    if (!hasOwn.call(value, key)) continue;
    if (prototypeKeys.has(key)) return INVALID;
    const item = copyValue((value as Record<string, unknown>)[key], depth + 1);
    if (item === INVALID) return INVALID;
    copy[key] = item;
  }
  return copy;
}

/** The first problem of a value that is not JSON, with its path (the slow walk, for the error). */
function findProblem(value: unknown, path: string, depth: number): string | undefined {
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : `${path} is ${value}: only finite numbers are JSON.`;
  if (typeof value !== "object") return `${path} is ${describe(value)}, not a JSON value.`;
  if (depth >= MAX_MESSAGE_METADATA_DEPTH) return `${path} is nested deeper than ${MAX_MESSAGE_METADATA_DEPTH} levels.`;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const problem = findProblem(value[index], `${path}[${index}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return `${path} is ${describe(value)}, not a plain object.`;
  for (const key of Object.keys(value)) {
    if (prototypeKeys.has(key)) return `${path} has the key "${key}", which is not allowed.`;
    const problem = findProblem((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

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
