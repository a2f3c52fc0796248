import type { AgentMessage } from "../messages/agent-message";
import { type StepMetadata, sumUsage } from "../messages/message-metadata";
import type { UIMessageAgentMetadata } from "./ui-message";

/**
 * The metadata of a UI message made of `sources` (`convertToUIMessages`; the UI stream sends the
 * same as `message-metadata` after each step, docs/messages.md "Message metadata"):
 * - the app's fields of its assistant messages, merged in order as the AI SDK merges metadata
 *   chunks (objects key by key, anything else replaced: the last step's value wins);
 * - `agentcore.ids` and `agentcore.timestamps`: the ids and times of every source, in order (when
 *   each has one), so `convertToModelMessages` restores them;
 * - from the assistant messages' own fields: `provider`, `modelId` and `finishReason` of the last
 *   step, `usage` and `durationMs` summed over the steps, and `steps` (each step's own fields, in
 *   order) when there is more than one.
 * Undefined when there is nothing to say.
 */
export function foldMessageMetadata(sources: readonly AgentMessage[]): UIMessageAgentMetadata | undefined {
  let app: Record<string, unknown> | undefined;
  const steps: StepMetadata[] = [];
  let ids: string[] | undefined = [];
  let timestamps: number[] | undefined = [];
  for (const source of sources) {
    if (ids && source.id !== undefined) ids.push(source.id);
    else ids = undefined;
    if (timestamps && source.timestamp !== undefined) timestamps.push(source.timestamp);
    else timestamps = undefined;
    if (source.role !== "assistant" || source.metadata === undefined) continue;
    const { agentcore: step, ...fields } = source.metadata;
    if (step !== undefined) steps.push(step);
    for (const key in fields) app = mergeField(app ?? {}, key, fields[key]);
  }
  const agentcore: NonNullable<UIMessageAgentMetadata["agentcore"]> = {};
  if (ids) agentcore.ids = ids;
  if (timestamps) agentcore.timestamps = timestamps;
  const last = steps.at(-1);
  if (last) {
    agentcore.provider = last.provider;
    agentcore.modelId = last.modelId;
    agentcore.finishReason = last.finishReason;
    agentcore.usage = steps.length === 1 ? last.usage : steps.map((step) => step.usage).reduce(sumUsage);
    agentcore.durationMs = steps.reduce((total, step) => total + step.durationMs, 0);
    if (steps.length > 1) agentcore.steps = steps;
  }
  if (app === undefined && Object.keys(agentcore).length === 0) return undefined;
  return Object.keys(agentcore).length === 0 ? { ...app } : { ...app, agentcore };
}

/** `target` with `value` merged in at `key`: plain objects key by key, anything else replaces (the AI SDK's `mergeObjects`). */
function mergeField(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const current = target[key];
  target[key] =
    isRecord(value) && isRecord(current)
      ? Object.keys(value).reduce((merged, inner) => mergeField(merged, inner, value[inner]), { ...current })
      : value;
  return target;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
