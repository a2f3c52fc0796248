import {
  checkContextReport,
  contextReportCount,
  pushContextReport,
  type ContextReport,
  type ContextReportReadOptions,
} from "./context-report";
import type { MemoryStore } from "./memory-store";
import { newestSummaries } from "./summary-count";

/** Sessions whose reports a store without the capability keeps in this process, at most (the oldest session goes first). */
const MAX_LOCAL_SESSIONS = 1_000;

/** The context-report methods of the adapted store (`AdaptedStore`). */
export interface AdaptedContextReports {
  /** Keeps a model call's context report (idempotent by id, bounded per session): in the store, or in this process. */
  saveContextReport(sessionId: string, report: ContextReport): Promise<void>;
  /** A session's context reports, oldest first (the newest `last` with `{ last }`). */
  getContextReports(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]>;
}

/** The adapter's context-report calls: the store's own, or kept in this process (see `adaptStore`). */
export interface ContextReportCalls {
  readonly native: boolean;
  save(sessionId: string, report: ContextReport): Promise<void>;
  get(sessionId: string, options?: ContextReportReadOptions): Promise<ContextReport[]>;
  /** Forgets the reports kept in this process for a session (its history was cleared). */
  forget(sessionId: string): void;
}

/**
 * Context reports through a store: `saveContextReport` / `getContextReports` when it has both,
 * otherwise kept in this process, bounded per session and in sessions (diagnostics: lost on
 * restart, never a message). `call` wraps each store call into the adapter's errors.
 */
export function contextReportCalls(
  store: MemoryStore,
  name: string,
  call: <T>(operation: string, sessionId: string, describe: string, work: () => Promise<T>) => Promise<T>,
): ContextReportCalls {
  const native = typeof store.saveContextReport === "function" && typeof store.getContextReports === "function";
  const local = new Map<string, ContextReport[]>();
  return {
    native,
    save: async (sessionId, report) => {
      checkContextReport(sessionId, report, name);
      if (native) {
        return await call(
          "saveContextReport",
          sessionId,
          `Could not save a context report of session "${sessionId}"`,
          () => store.saveContextReport!(sessionId, report),
        );
      }
      const reports = local.get(sessionId) ?? [];
      local.delete(sessionId);
      local.set(sessionId, reports);
      pushContextReport(reports, structuredClone(report));
      if (local.size > MAX_LOCAL_SESSIONS) local.delete(local.keys().next().value!);
    },
    get: async (sessionId, options) => {
      const count = contextReportCount(options, name);
      if (!native) return structuredClone(newestSummaries(local.get(sessionId) ?? [], count));
      const read = () =>
        count === Infinity ? store.getContextReports!(sessionId) : store.getContextReports!(sessionId, { last: count });
      const reports = await call(
        "getContextReports",
        sessionId,
        `Could not read the context reports of session "${sessionId}"`,
        read,
      );
      return newestSummaries(reports ?? [], count);
    },
    forget: (sessionId) => {
      local.delete(sessionId);
    },
  };
}
