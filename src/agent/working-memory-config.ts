import { integerOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { planWorkingMemoryPatch, type WorkingMemoryPlan } from "../tools/working-memory-patch";
import { readWorkingMemorySchema, type WorkingMemorySchema } from "../tools/working-memory-schema";
import type { WorkingMemoryOptions } from "./working-memory-options";

/** The `workingMemory` option, checked at construction. */
export interface ResolvedWorkingMemory {
  readonly scope: "user" | "session";
  readonly schema: WorkingMemorySchema;
  /** `initial`, checked against the schema, as field writes. */
  readonly initial: WorkingMemoryPlan["writes"];
}

const KNOWN = ["schema", "scope", "initial", "maxChars"];

/** Checks the `workingMemory` option: every bad value an `InvalidArgumentError` naming it. */
export function resolveWorkingMemory(option: WorkingMemoryOptions | undefined): ResolvedWorkingMemory | undefined {
  if (option === undefined) return undefined;
  if (option === null || typeof option !== "object" || Array.isArray(option)) {
    throw new InvalidArgumentError({
      argument: "workingMemory",
      value: option,
      message: 'workingMemory must be an object: { schema: z.object({...}), scope: "user" | "session", initial? }.',
    });
  }
  for (const name of Object.keys(option)) {
    if (!KNOWN.includes(name)) {
      throw new InvalidArgumentError({
        argument: `workingMemory.${name}`,
        message: `workingMemory has no option "${name}". Its options are: ${KNOWN.join(", ")}.`,
      });
    }
  }
  if (option.scope !== "user" && option.scope !== "session") {
    throw new InvalidArgumentError({
      argument: "workingMemory.scope",
      value: option.scope,
      message: 'workingMemory.scope must be "user" (one profile per user) or "session" (one per session).',
    });
  }
  const maxChars = integerOption(option.maxChars, "workingMemory.maxChars", 4000);
  const schema = readWorkingMemorySchema(option.schema, maxChars);
  let initial: WorkingMemoryPlan["writes"] = [];
  if (option.initial !== undefined) {
    const checked = planWorkingMemoryPatch(schema, { set: option.initial });
    if ("issues" in checked) {
      throw new InvalidArgumentError({
        argument: "workingMemory.initial",
        value: option.initial,
        message: `workingMemory.initial does not match the schema: ${checked.issues.join("; ")}`,
      });
    }
    initial = checked.plan.writes;
  }
  return Object.freeze({ scope: option.scope, schema, initial });
}
