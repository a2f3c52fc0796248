import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { validateSessionId } from "../messages/session-id";
import { backendOf } from "../stores/backend-of";
import { factScopeId } from "../stores/fact-scope";
import type { MemoryStore } from "../stores/memory-store";
import type { StoreBackend } from "../stores/store-backend";
import type { ToolExecutionContext, ToolSet } from "../tools/tool";
import { planWorkingMemoryPatch, type WorkingMemoryPatch } from "../tools/working-memory-patch";
import {
  readWorkingMemory,
  writeWorkingMemory,
  type WorkingMemoryChange,
  type WorkingMemoryPlace,
  type WorkingMemorySnapshot,
} from "../tools/working-memory-profile";
import { createWorkingMemoryTool, WORKING_MEMORY_TOOL_NAME } from "../tools/working-memory-tool";
import type { ResolvedWorkingMemory } from "./working-memory-config";
import type { RunWorkingMemory } from "./working-memory-run";

/** Whose profile: a user's (scope "user") or a session's (scope "session"). */
export type WorkingMemoryOwner = { userId: string; sessionId?: undefined } | { sessionId: string; userId?: undefined };

/** What the agent tells the working memory tool. */
export interface WorkingMemoryHooks {
  /** The working memory of the tool call's run, when the call comes from one of the agent's runs. */
  runOf: (context: ToolExecutionContext) => RunWorkingMemory | undefined;
}

/** Adds `update_working_memory` to the agent's tools (its name refused for a tool of the user's). */
export function addWorkingMemoryTool(
  tools: ToolSet,
  resolved: ResolvedWorkingMemory,
  memoryStore: MemoryStore,
  hooks: WorkingMemoryHooks | undefined,
): void {
  if (Object.hasOwn(tools, WORKING_MEMORY_TOOL_NAME)) {
    throw new InvalidArgumentError({
      argument: `tools.${WORKING_MEMORY_TOOL_NAME}`,
      message: `The tool name "${WORKING_MEMORY_TOOL_NAME}" is taken by working memory (the workingMemory option). Rename your tool.`,
    });
  }
  const store = backendOf(memoryStore);
  tools[WORKING_MEMORY_TOOL_NAME] = createWorkingMemoryTool({
    schema: resolved.schema,
    placeOf: (context) =>
      hooks?.runOf(context)?.place ?? placeOf(store, resolved, factScopeId(resolved.scope, context)),
    onChange: async (_changes, context) => {
      await hooks?.runOf(context)?.refresh();
    },
  });
}

function placeOf(store: StoreBackend, resolved: ResolvedWorkingMemory, scopeId: string): WorkingMemoryPlace {
  return { store, schema: resolved.schema, initial: resolved.initial, scopeId };
}

/** The scope id of a run's profile (its ids validated already); scope "user" needs the run's userId. */
export function workingMemoryScopeId(
  resolved: ResolvedWorkingMemory,
  sessionId: string,
  userId: string | undefined,
): string {
  if (resolved.scope === "session") return `session:${sessionId}`;
  if (userId === undefined) {
    throw new InvalidArgumentError({
      argument: "userId",
      message:
        'workingMemory.scope "user" keeps one profile per user: pass userId to run() or stream() (from your auth session, not the request body).',
    });
  }
  return `user:${userId}`;
}

/** The scope id of an owner, checked against the agent's scope. */
function ownerScopeId(resolved: ResolvedWorkingMemory, owner: WorkingMemoryOwner): string {
  const given = owner as { userId?: unknown; sessionId?: unknown } | null;
  const id = resolved.scope === "user" ? given?.userId : given?.sessionId;
  if (typeof id !== "string") {
    const needs = resolved.scope === "user" ? "userId" : "sessionId";
    throw new InvalidArgumentError({
      argument: needs,
      value: owner,
      message: `This agent keeps working memory per ${resolved.scope} (workingMemory.scope "${resolved.scope}"): pass { ${needs} }.`,
    });
  }
  const argument = resolved.scope === "user" ? "userId" : "sessionId";
  return `${resolved.scope}:${validateSessionId(id, argument)}`;
}

function resolvedOf(resolved: ResolvedWorkingMemory | undefined): ResolvedWorkingMemory {
  if (resolved === undefined) {
    throw new InvalidArgumentError({
      argument: "workingMemory",
      message: "This agent keeps no working memory: give it the workingMemory option (docs/working-memory.md).",
    });
  }
  return resolved;
}

/** `agent.getWorkingMemory(owner)`: the owner's profile, when each field last changed, the recent changes. */
export async function getWorkingMemory(
  store: StoreBackend,
  resolved: ResolvedWorkingMemory | undefined,
  owner: WorkingMemoryOwner,
): Promise<WorkingMemorySnapshot> {
  const checked = resolvedOf(resolved);
  return await readWorkingMemory(placeOf(store, checked, ownerScopeId(checked, owner)));
}

/**
 * `agent.updateWorkingMemory(owner, patch)`: the tool's patch, from the app. A patch that does not
 * check against the schema is an `InvalidArgumentError` listing every issue, and writes nothing.
 */
export async function updateWorkingMemory(
  store: StoreBackend,
  resolved: ResolvedWorkingMemory | undefined,
  owner: WorkingMemoryOwner,
  patch: WorkingMemoryPatch,
): Promise<WorkingMemoryChange[]> {
  const checked = resolvedOf(resolved);
  const scopeId = ownerScopeId(checked, owner);
  const plan = planWorkingMemoryPatch(checked.schema, patch);
  if ("issues" in plan) {
    throw new InvalidArgumentError({
      argument: "patch",
      value: patch,
      message: `The working memory patch is invalid, nothing was written: ${plan.issues.join("; ")}`,
    });
  }
  return await writeWorkingMemory(placeOf(store, checked, scopeId), plan.plan, {});
}
