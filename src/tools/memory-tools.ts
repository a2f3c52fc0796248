import { z } from "zod";
import type { AgentMessage } from "../messages/agent-message";
import type { Fact, MemoryStore } from "../stores/memory-store";
import { backendOf } from "../stores/backend-of";
import { ordinaryFacts } from "../stores/working-memory-keys";
import { hasLoneSurrogate } from "../messages/session-id";
import { tool, type ToolExecutionContext, type ToolSet } from "./tool";

/** Bounds on what the model may store with the memory tools. */
export interface FactLimits {
  /** Facts kept per scope; `remember_fact` of a new key past it is refused. @default 100 */
  maxFacts?: number;
  /** Characters of a normalised key. @default 64 */
  maxKeyLength?: number;
  /** Characters of a value. @default 2000 */
  maxValueLength?: number;
  /** Tokens of the facts block in the system prompt (estimated); the newest facts win. @default 1000 */
  maxPromptTokens?: number;
}

export const DEFAULT_FACT_LIMITS: Required<FactLimits> = {
  maxFacts: 100,
  maxKeyLength: 64,
  maxValueLength: 2000,
  maxPromptTokens: 1000,
};

/** A fact that changed, as reported in `memory:write` events. */
export interface FactChange {
  action: "set" | "delete";
  scopeId: string;
  key: string;
  value?: string;
  previousValue?: string;
  messageId?: string;
}

const LONE_SURROGATE = "a lone surrogate (an unpaired \\ud800-\\udfff), which no store keeps as written";

/** The names of the memory tools. */
export const MEMORY_TOOL_NAMES = ["remember_fact", "recall_fact", "forget_fact"] as const;

/** The memory tools that change facts: after one of them ran, the run reads the facts again. */
export const FACT_CHANGING_TOOL_NAMES: readonly (typeof MEMORY_TOOL_NAMES)[number][] = ["remember_fact", "forget_fact"];

/**
 * Normalises a fact key: Unicode NFKC, trimmed, case-folded, inner whitespace as `_`. Returns
 * an error text for the model when the key is empty, too long, holds a lone surrogate or has
 * characters other than letters, digits, `_`, `-` and `.`.
 */
export function normalizeFactKey(
  raw: string,
  maxKeyLength = DEFAULT_FACT_LIMITS.maxKeyLength,
): { key: string } | { error: string } {
  // Checked first, so the key is never echoed back: a lone surrogate has no UTF-8 form.
  if (hasLoneSurrogate(raw))
    return { error: `The key contains ${LONE_SURROGATE}. Use letters, digits, "_", "-" and "." only.` };
  const key = raw.normalize("NFKC").trim().toLowerCase().replace(/\s+/g, "_");
  if (key.length === 0) return { error: 'The key is empty. Use a short name such as "preferred_language".' };
  if (key.length > maxKeyLength) {
    return { error: `The key is ${key.length} characters long; the limit is ${maxKeyLength}. Use a shorter key.` };
  }
  if (!/^[\p{L}\p{N}_.-]+$/u.test(key)) {
    return { error: `The key "${key.slice(0, 40)}" may only contain letters, digits, "_", "-" and ".".` };
  }
  return { key };
}

interface MemoryToolsOptions {
  store: MemoryStore;
  /** The scope id of a call's facts. */
  scopeOf: (context: ToolExecutionContext) => string;
  limits: Required<FactLimits>;
  /** Called after a fact was stored or deleted. */
  onChange: (change: FactChange, context: ToolExecutionContext) => void;
}

/**
 * The three tools the model manages its own notes with. Every bound or unknown key answers the
 * model with a tool result that says so; nothing throws for the model's mistakes. Writes to one
 * scope are serialised in this process so the fact count bound holds under parallel calls.
 */
export function createMemoryTools(options: MemoryToolsOptions): ToolSet {
  const store = backendOf(options.store);
  const { limits } = options;
  const chains = new Map<string, Promise<unknown>>();
  const serialised = <T>(scopeId: string, work: () => Promise<T>): Promise<T> => {
    const previous = chains.get(scopeId) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => {});
    chains.set(scopeId, settled);
    void settled.then(() => {
      if (chains.get(scopeId) === settled) chains.delete(scopeId);
    });
    return next;
  };

  const rememberFact = tool({
    description:
      "Save a lasting fact about the user or the conversation (a preference, a name, a decision) so it is remembered in later turns. " +
      "A new value for an existing key replaces the old one.",
    parameters: z.object({
      key: z.string().describe('Short snake_case name, e.g. "preferred_language"'),
      value: z.string().describe("The fact, in a short sentence or phrase"),
    }),
    execute: async ({ key: rawKey, value }, context) => {
      const normalised = normalizeFactKey(rawKey, limits.maxKeyLength);
      if ("error" in normalised) return `Not saved: ${normalised.error}`;
      const { key } = normalised;
      const trimmed = value.trim();
      // Refused, not repaired: PostgreSQL and JSON would store U+FFFD instead, a fact the model never wrote.
      if (hasLoneSurrogate(trimmed))
        return `Not saved: the value for "${key}" contains ${LONE_SURROGATE}. Send it again as well-formed text.`;
      if (trimmed.length === 0) return `Not saved: the value for "${key}" is empty. To remove a fact use forget_fact.`;
      if (trimmed.length > limits.maxValueLength) {
        return `Not saved: the value for "${key}" is ${trimmed.length} characters long; the limit is ${limits.maxValueLength}. Save a shorter summary.`;
      }
      const scopeId = options.scopeOf(context);
      return serialised(scopeId, async () => {
        const facts = ordinaryFacts(await store.getFacts(scopeId, context.sessionId));
        const existing = facts.find((fact) => fact.key === key);
        if (!existing && facts.length >= limits.maxFacts) {
          return `Not saved: ${facts.length} facts are already stored, the limit is ${limits.maxFacts}. Forget one with forget_fact, or update an existing key.`;
        }
        if (existing?.value === trimmed) return `Already remembered: ${key} = ${trimmed}`;
        const now = Date.now();
        const messageId = currentUserMessageId(context.messages);
        const fact: Fact = {
          key,
          value: trimmed,
          createdAt: existing?.createdAt ?? now,
          updatedAt: now,
          ...(messageId === undefined ? {} : { messageId }),
        };
        await store.setFact(scopeId, fact, context.sessionId);
        options.onChange(
          {
            action: "set",
            scopeId,
            key,
            value: trimmed,
            ...(existing ? { previousValue: existing.value } : {}),
            ...(messageId === undefined ? {} : { messageId }),
          },
          context,
        );
        return existing ? `Updated: ${key} = ${trimmed} (was: ${existing.value})` : `Remembered: ${key} = ${trimmed}`;
      });
    },
  });

  const recallFact = tool({
    description: "Read a saved fact by key, or every saved fact when no key is given.",
    parameters: z.object({ key: z.string().optional().describe("The key to read; omit to list all facts") }),
    execute: async ({ key: rawKey }, context) => {
      const facts = sortFacts(ordinaryFacts(await store.getFacts(options.scopeOf(context), context.sessionId)));
      if (rawKey === undefined || rawKey.trim() === "") {
        if (facts.length === 0) return "No facts are saved yet.";
        return JSON.stringify(facts.map(factForModel));
      }
      const normalised = normalizeFactKey(rawKey, limits.maxKeyLength);
      if ("error" in normalised) return `No such fact: ${normalised.error}`;
      const fact = facts.find((candidate) => candidate.key === normalised.key);
      if (!fact) return `No fact named "${normalised.key}". ${knownKeys(facts)}`;
      return JSON.stringify(factForModel(fact));
    },
  });

  const forgetFact = tool({
    description: "Delete a saved fact by key (when the user asks to forget it, or it is no longer true).",
    parameters: z.object({ key: z.string().describe("The key to delete") }),
    execute: async ({ key: rawKey }, context) => {
      const normalised = normalizeFactKey(rawKey, limits.maxKeyLength);
      if ("error" in normalised) return `Nothing deleted: ${normalised.error}`;
      const { key } = normalised;
      const scopeId = options.scopeOf(context);
      return serialised(scopeId, async () => {
        const facts = ordinaryFacts(await store.getFacts(scopeId, context.sessionId));
        const existing = facts.find((fact) => fact.key === key);
        if (!existing) return `Nothing deleted: no fact named "${key}". ${knownKeys(facts)}`;
        await store.deleteFact(scopeId, key, context.sessionId);
        const messageId = currentUserMessageId(context.messages);
        options.onChange(
          {
            action: "delete",
            scopeId,
            key,
            previousValue: existing.value,
            ...(messageId === undefined ? {} : { messageId }),
          },
          context,
        );
        return `Forgotten: ${key}`;
      });
    },
  });

  return { remember_fact: rememberFact, recall_fact: recallFact, forget_fact: forgetFact };
}

/** Facts in their stable order: by key. */
export function sortFacts(facts: Fact[]): Fact[] {
  return [...facts].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** A fact as recall_fact shows it: when it changed only when the store keeps that (a key → value store does not). */
function factForModel(fact: Fact): { key: string; value: string; updatedAt?: string } {
  return {
    key: fact.key,
    value: fact.value,
    ...(fact.updatedAt > 0 ? { updatedAt: new Date(fact.updatedAt).toISOString() } : {}),
  };
}

function knownKeys(facts: Fact[]): string {
  if (facts.length === 0) return "No facts are saved.";
  const keys = sortFacts(facts).map((fact) => fact.key);
  return `Known keys: ${keys.slice(0, 50).join(", ")}${keys.length > 50 ? `, … (${keys.length} in all)` : ""}.`;
}

/** The id of the last user message in a tool call's window: the turn a write belongs to. */
export function currentUserMessageId(messages: readonly AgentMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role === "user") return message.id;
  }
  return undefined;
}
