import type { z } from "zod";
import type { WorkingMemoryPartial } from "../tools/working-memory-patch";

/** The `workingMemory` option: a typed profile the model keeps up to date (docs/working-memory.md). */
export interface WorkingMemoryOptions<Schema extends z.ZodObject = z.ZodObject> {
  /**
   * The profile's shape: a zod object. Every string and array needs a `.max()` (the profile is
   * rendered into every system prompt, so its size is bounded); nested objects are merged field by field.
   */
  schema: Schema;
  /** `"user"`: one profile per user (runs must pass `userId`); `"session"`: one per session. */
  scope: "user" | "session";
  /** The profile before anything is stored (a deep partial, checked against `schema`). Stored fields override it field by field. */
  initial?: WorkingMemoryPartial<z.output<Schema>>;
  /** Characters the rendered profile may take at most: a schema that allows more is refused at construction. @default 4000 */
  maxChars?: number;
}
