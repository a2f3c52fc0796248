import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";
import type { MemoryRecord, RecallReadOptions } from "../providers/memory-provider";
import { withTimeout } from "../providers/with-timeout";
import type { AgentConfig } from "./agent-config";
import type { TurnRun } from "./turn-run";

/**
 * Asks the memory provider for records relevant to the input, within `memoryProviderTimeoutMs`.
 * A provider that fails or times out degrades the turn (`memory:error`, no records). Thrown: an
 * abort of the run, and an `UnsupportedRuntimeError` (a provider that cannot work here at all,
 * e.g. `Mem0Provider` without the `mem0ai` package), which no later run would get past either.
 */
export async function recallMemories(
  config: AgentConfig,
  run: TurnRun,
  /** Told what the read's embeddings spent, for the usage ledger. */
  onUsage?: RecallReadOptions["onUsage"],
): Promise<MemoryRecord[]> {
  const provider = config.memoryProvider;
  // A run that only answers tool approvals has no new input to recall for.
  if (!provider || run.input === undefined) return [];
  const span = run.trace?.recall(provider.type);
  try {
    // The provider's signal fires at the timeout (or with the run's), so its request is cancelled too.
    const records = await withTimeout(
      (abortSignal) =>
        provider.read({
          sessionId: run.sessionId,
          ...(run.userId ? { userId: run.userId } : {}),
          query: run.inputText,
          limit: config.recallLimit,
          abortSignal,
          ...(onUsage ? { onUsage } : {}),
        }),
      {
        ms: config.memoryProviderTimeoutMs,
        provider: provider.type,
        operation: "read",
        ...(run.abortSignal ? { parent: run.abortSignal } : {}),
      },
    );
    // Records come from outside: keep only well-formed ones, so a bad one cannot break the prompt.
    const recalled = Array.isArray(records) ? records.filter(isMemoryRecord).slice(0, config.recallLimit) : [];
    span?.end({ "agentcore.recall.count": recalled.length });
    return recalled;
  } catch (error) {
    span?.fail(error, run.abortSignal?.aborted);
    if (run.abortSignal?.aborted || UnsupportedRuntimeError.isInstance(error)) throw error;
    run.notifier.notify({ type: "memory:error", source: provider.type, operation: "read", error });
    return [];
  }
}

function isMemoryRecord(record: unknown): record is MemoryRecord {
  return typeof record === "object" && record !== null && typeof (record as MemoryRecord).content === "string";
}
