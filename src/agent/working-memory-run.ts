import type { StoreBackend } from "../stores/store-backend";
import { readWorkingMemory, type WorkingMemoryPlace } from "../tools/working-memory-profile";
import type { ResolvedWorkingMemory } from "./working-memory-config";
import { renderWorkingMemoryBlock } from "./working-memory-block";

/**
 * A run's working memory: where its profile lives and the block its steps render. Read when the
 * run loads, and again after each `update_working_memory` call; of reads that overlap, the one
 * started last wins, so the block never goes back to an older profile.
 */
export class RunWorkingMemory {
  /** The `<working_memory>` block of the latest read ("" until the first). */
  block = "";
  readonly place: WorkingMemoryPlace;
  private started = 0;
  private applied = 0;

  constructor(
    store: StoreBackend,
    resolved: ResolvedWorkingMemory,
    scopeId: string,
    private readonly sessionId: string,
  ) {
    this.place = { store, schema: resolved.schema, initial: resolved.initial, scopeId };
  }

  /** Reads the profile and renders its block. */
  async refresh(): Promise<void> {
    const ticket = ++this.started;
    const snapshot = await readWorkingMemory(this.place, this.sessionId);
    if (ticket < this.applied) return;
    this.applied = ticket;
    this.block = renderWorkingMemoryBlock(this.place.schema, snapshot.profile);
  }
}
