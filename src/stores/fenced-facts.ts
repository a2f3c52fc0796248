import type { Fact } from "./memory-store";

/**
 * Where a built-in store keeps its fact writes that name the writer's session (internal: not
 * exported by the package, so not part of the `MemoryStore` contract, and the public
 * `setFact(scopeId, fact)` keeps its two parameters). A write naming a session whose lock this
 * store instance holds, or held until it was taken over, is fenced by that lock whatever the
 * fact's scope (a run's `remember_fact` / `forget_fact`): refused with `SessionLockLostError`,
 * nothing written, once the lock was lost. A session this instance never locked: not fenced, as
 * the public methods are not. A store without it is served by its public fact methods.
 */
export const fencedFacts: unique symbol = Symbol.for("agentcore.fencedFacts");

/** The fact writes of a store fenced by the writer session's lock (`writerSessionId`). */
export interface FencedFacts {
  setFact(scopeId: string, fact: Fact, writerSessionId: string): Promise<void>;
  /** Resolves to whether the fact existed. */
  deleteFact(scopeId: string, key: string, writerSessionId: string): Promise<boolean>;
}

/** Marks a built-in store's public `setFact` and `deleteFact`: what its fenced writes stand for. */
const fenceable: unique symbol = Symbol.for("agentcore.fenceableFactWrite");

/**
 * Declares that `prototype`'s `setFact` and `deleteFact` do what its instances' fenced fact writes
 * do, minus the fence. A subclass that overrides either (to log, to transform a fact) does not
 * carry the mark, so its override keeps being called, unfenced, as before.
 */
export function markFenceableFactWrites(prototype: { setFact: unknown; deleteFact: unknown }): void {
  for (const method of [prototype.setFact, prototype.deleteFact]) {
    if (typeof method === "function") Object.defineProperty(method, fenceable, { value: true });
  }
}

const marked = (method: unknown) =>
  typeof method === "function" && (method as { [fenceable]?: true })[fenceable] === true;

/** The store's fenced fact writes, when it has them and its public fact writes are the built-in ones. */
export function fencedFactsOf(store: object): FencedFacts | undefined {
  const facts = (store as { [fencedFacts]?: FencedFacts })[fencedFacts];
  const { setFact, deleteFact } = store as { setFact?: unknown; deleteFact?: unknown };
  return facts != null &&
    typeof facts.setFact === "function" &&
    typeof facts.deleteFact === "function" &&
    marked(setFact) &&
    marked(deleteFact)
    ? facts
    : undefined;
}
