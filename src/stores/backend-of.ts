// The one way into a store inside the package (docs/architecture.md, "The store backend"): every
// caller (the agent, the strategies, the memory tools, the inspector, the CLI) asks `backendOf(store)`
// and never looks at which optional `MemoryStore` methods a store has.
import { fallbackBackend } from "./fallback-backend";
import type { MemoryStore } from "./memory-store";
import { storeBackend, type BuiltInStore, type StoreBackend } from "./store-backend";

const backends = new WeakMap<MemoryStore, StoreBackend>();

/**
 * The backend of a store, made once per store (the same object every time): the store's own
 * (`[storeBackend]`, the built-in stores), else the fallback backend that wraps a user's store.
 */
export function backendOf(store: MemoryStore): StoreBackend {
  let backend = backends.get(store);
  if (!backend) {
    const own = (store as Partial<BuiltInStore>)[storeBackend];
    backend = own === undefined ? fallbackBackend(store) : own.call(store);
    backends.set(store, backend);
  }
  return backend;
}
