import type {
  MemoryReadOptions,
  MemoryScope,
  MemoryWriteOptions,
  ModelMessage,
  StoredMemoryEntry,
} from "../providers/memory-provider";
import type { ConversationStorage } from "./conversation-storage";

// biome-ignore lint/suspicious/noExplicitAny: a mixin's base must take `...args: any[]` (TypeScript's rule for mixin classes)
type StrategyClass = abstract new (...args: any[]) => object;

/** The storage of each conversation memory (kept off the instances, so their public shape stays the contract's). */
const storages = new WeakMap<object, ConversationStorage>();

/** Gives a conversation memory the storage its `read`, `write`, `clear` and `entries` use (in its constructor). */
export function attachStorage(memory: object, storage: ConversationStorage): void {
  storages.set(memory, storage);
}

function storageOf(memory: object): ConversationStorage {
  return storages.get(memory)!;
}

/**
 * A strategy class that also answers the AgentLIB read/write memory contract (the conversation
 * memories: `SlidingWindowMemory`, `BufferMemory`, `SummarizingMemory`), each method delegating to
 * the memory's `ConversationStorage`, which applies the strategy's own window on read.
 */
export function withConversationMemory<Base extends StrategyClass>(Base: Base) {
  abstract class ConversationMemory extends Base {
    /** The provider type (AgentLIB's `MemoryProvider.type`): the strategy's name. */
    get type(): string {
      return (this as unknown as { readonly name: string }).name;
    }

    /** The session's conversation (AgentLIB's `read`): every message written, windowed by this memory (a summary of older turns first, as a system message, where it summarises). */
    read(options: MemoryReadOptions = {}): Promise<ModelMessage[]> {
      return storageOf(this).read(options);
    }

    /** Stores the messages of a run (AgentLIB's `write`); system messages and messages already stored are skipped. */
    write(messages: ModelMessage[], options: MemoryWriteOptions = {}): Promise<void> {
      return storageOf(this).write(messages, options);
    }

    /** Forgets one session's conversation, or every session's. */
    clear(sessionId?: string | MemoryScope): Promise<void> {
      return storageOf(this).clear(sessionId);
    }

    /** The stored conversations, one entry per session, with their metadata. */
    entries(sessionId?: string | MemoryScope): Promise<StoredMemoryEntry[]> {
      return storageOf(this).entries(sessionId);
    }
  }
  return ConversationMemory;
}
