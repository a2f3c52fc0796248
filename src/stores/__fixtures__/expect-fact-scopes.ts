import { expect } from "vitest";
import type { MemoryStore } from "../memory-store";

/** `factScopes()` lists every scope written with `setFact` (session and user scopes alike). */
export async function expectFactScopes(store: MemoryStore): Promise<void> {
  const fact = { key: "colour", value: "teal", createdAt: 1, updatedAt: 1 };
  await store.setFact("user:bob", fact);
  await store.setFact("session:alpha", fact);
  const scopes = await store.factScopes!();
  expect(scopes).toEqual(expect.arrayContaining(["session:alpha", "user:bob"]));
  expect(new Set(scopes).size).toBe(scopes.length);
}
