import { jsonSchema } from "./json-schema";
import { currentUserMessageId } from "./memory-tools";
import { tool, type Tool, type ToolExecutionContext } from "./tool";
import { planWorkingMemoryPatch } from "./working-memory-patch";
import { writeWorkingMemory, type WorkingMemoryChange, type WorkingMemoryPlace } from "./working-memory-profile";
import { deepPartialJsonSchema, type WorkingMemorySchema } from "./working-memory-schema";

/** The name of the tool the model updates its working memory with. */
export const WORKING_MEMORY_TOOL_NAME = "update_working_memory";

interface WorkingMemoryToolOptions {
  schema: WorkingMemorySchema;
  /** Where a call's profile lives (its run's scope). */
  placeOf: (context: ToolExecutionContext) => WorkingMemoryPlace;
  /** Called after a patch was written. */
  onChange: (changes: WorkingMemoryChange[], context: ToolExecutionContext) => Promise<void> | void;
}

/**
 * `update_working_memory`: `{ set?, delete? }`. Its JSON schema is a deep partial with nothing
 * required (never strict: no provider pads absent fields with null). A patch that does not check
 * against the profile's schema writes nothing and answers the model with every issue.
 */
export function createWorkingMemoryTool(options: WorkingMemoryToolOptions): Tool {
  const parameters = jsonSchema<{ set?: unknown; delete?: unknown }>(
    {
      type: "object",
      properties: {
        set: {
          ...deepPartialJsonSchema(options.schema.schema),
          description:
            "Fields to change. Objects are merged into the profile (give only what changed); arrays replace the stored array. null or an absent field leaves the stored value as it is.",
        },
        delete: {
          type: "array",
          items: { type: "string" },
          description: 'Dotted paths of fields to remove, e.g. ["contact.phone"]. Only this removes a field.',
        },
      },
    },
    // Checked in full by the tool itself, so an invalid patch comes back as the tool's answer.
    { validate: (value) => ({ success: true, value: value as { set?: unknown; delete?: unknown } }) },
  );
  return tool({
    description:
      "Update the profile shown in <working_memory> (what you keep about the user: preferences, details, goals). " +
      "Send only the fields that changed; to remove one, name it in delete.",
    parameters,
    execute: async (input, context) => {
      const checked = planWorkingMemoryPatch(options.schema, input);
      if ("issues" in checked) return `Nothing was written; the update is invalid:\n- ${checked.issues.join("\n- ")}`;
      const place = options.placeOf(context);
      const changes = await writeWorkingMemory(place, checked.plan, {
        sessionId: context.sessionId,
        messageId: currentUserMessageId(context.messages),
      });
      await options.onChange(changes, context);
      if (changes.length === 0) return "Nothing to change: the update set no field and deleted none.";
      return `Updated working memory: ${changes.map((change) => `${change.action === "set" ? "set" : "deleted"} ${change.path}`).join(", ")}.`;
    },
  });
}
