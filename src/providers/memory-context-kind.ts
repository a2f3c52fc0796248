/**
 * What a system message a memory's `read` returns stands for, so the agent can label it for what
 * it is (docs/architecture.md, "The run loop"): `"summary"`, a summary of earlier turns of this
 * conversation (`SummarizingMemory`, `SummaryMemory` read as a memory); `"recalled"`, a record a
 * recall provider found (turned into a system message by `CompositeMemory`). A system message
 * without a kind (a provider of your own, e.g. "Relevant: …") is context the memory gave, and is
 * labelled only as that. The kind rides beside the message object, never in it: stored and
 * compared messages stay as they were, and a copied message simply loses it.
 */
export type MemoryContextKind = "summary" | "recalled";

const kinds = new WeakMap<object, MemoryContextKind>();

/** Marks `message` (a system message a memory returns) with its kind; returns it. */
export function markMemoryContext<T extends object>(message: T, kind: MemoryContextKind): T {
  kinds.set(message, kind);
  return message;
}

/** The kind `markMemoryContext` gave this message, if any. */
export function memoryContextKind(message: unknown): MemoryContextKind | undefined {
  return typeof message === "object" && message !== null ? kinds.get(message) : undefined;
}
