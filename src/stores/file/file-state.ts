import type { AgentMessage } from "../../messages/agent-message";
import { decodeStoredMessages, encodeStoredMessages } from "../../messages/stored-encoding";
import type { Fact, SummaryRecord } from "../memory-store";
import { pushContextReport, type ContextReport } from "../context-report";
import { summariesAfterCut } from "../history-cut";
import type { SessionMetadata } from "../session-metadata";
import { previewOf } from "../session-preview";
import { addTotals, emptyTotals, type UsageTotals } from "../usage-totals";
import { addToLedger, parseLedger, serializeLedger, totalsOf, type Ledger, type LedgerDocument } from "./file-ledger";

/** Marks the snapshot file, so a stranger's JSON file is never mistaken for one. */
export const SNAPSHOT_FORMAT = "agentcore-file-store";
export const JOURNAL_FORMAT = "agentcore-journal";
export const SNAPSHOT_VERSION = 1;

export interface SessionState {
  createdAt: number;
  accessedAt: number;
  agentName?: string;
  tags?: string[];
  messages: AgentMessage[];
  ids: Set<string>;
  summaries: SummaryRecord[];
  /** Context reports, oldest first (absent in files written before they existed). */
  reports?: ContextReport[];
  /** The owner, recorded when a run with a userId created the session (absent: ownerless). */
  userId?: string;
  /** Set by hand (`updateSession`) or generated (a `title` line, only where none is). */
  title?: string;
  /** The app's own fields, replaced whole. */
  metadata?: SessionMetadata;
  /**
   * `previewOf` the messages, kept up to date by every line (never written to the snapshot:
   * computed again when one is loaded).
   */
  preview?: string;
  /** What the session's model calls spent (absent: nothing yet). */
  usage?: UsageTotals;
}

/** The whole store, as the snapshot plus the journal replayed on it describe it. */
export interface FileState {
  /** Pairs a snapshot with its journal: a journal of another generation is not applied. */
  generation: number;
  sessions: Map<string, SessionState>;
  facts: Map<string, Map<string, Fact>>;
  /**
   * The per-user index of `listSessions`: owner → the sessions created theirs. A cleared or pruned
   * session may stay in it until a listing meets it (`listFileSessions` checks each one).
   */
  owners: Map<string, Set<string>>;
  /** Each owner's running and daily usage totals (absent from snapshots written before the ledger). */
  ledger: Ledger;
}

/** One line of the journal: a change, applied in order on top of the snapshot. */
export type JournalOperation =
  /** `usage` (absent in lines written before the ledger): added to the session's and its owner's totals on the day of `at`. */
  | { op: "append"; session: string; messages: AgentMessage[]; at: number; usage?: UsageTotals }
  | { op: "set"; session: string; messages: AgentMessage[]; at: number }
  | { op: "clear"; session: string }
  /** `deleteMessagesFrom`: keeps the first `keep` messages, then appends `messages` (atomic delete-and-append). */
  | { op: "cut"; session: string; keep: number; messages: AgentMessage[]; at: number; usage?: UsageTotals }
  | { op: "fact"; scope: string; fact: Fact }
  | { op: "unfact"; scope: string; key: string }
  | {
      op: "meta";
      session: string;
      agentName?: string;
      tags?: string[];
      title?: string;
      metadata?: SessionMetadata;
      at: number;
    }
  /** A generated title: set on a session that exists and has none, its `usage` added then. */
  | { op: "title"; session: string; title: string; usage?: UsageTotals; at: number }
  /** `deleteUserData`: the user's `sessions` (those still theirs), their facts, the user's facts and totals. */
  | { op: "forget"; userId: string; sessions: string[] }
  | { op: "summary"; session: string; summary: SummaryRecord; at: number }
  | { op: "report"; session: string; report: ContextReport }
  | { op: "prune"; sessions: string[] }
  /** A session created by a run with a userId, owned by that user (nothing when the session exists). */
  | { op: "own"; session: string; userId: string; at: number };

/** The snapshot file's JSON. Readable: one object per session, messages as stored. */
interface SnapshotDocument {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  generation: number;
  sessions: Record<string, Omit<SessionState, "ids">>;
  facts: Record<string, Record<string, Fact>>;
  /** Absent in snapshots written before the ledger. */
  ledger?: LedgerDocument;
}

export function emptyState(): FileState {
  return { generation: 0, sessions: new Map(), facts: new Map(), owners: new Map(), ledger: new Map() };
}

/** Parses a snapshot file. Throws a plain Error saying what is wrong; the caller makes it typed. */
export function parseSnapshot(text: string): FileState {
  const document = JSON.parse(text) as Partial<SnapshotDocument> | null;
  if (document === null || typeof document !== "object" || document.format !== SNAPSHOT_FORMAT) {
    throw new Error(`it is not an agentcore file store (no "format": "${SNAPSHOT_FORMAT}")`);
  }
  if (document.version !== SNAPSHOT_VERSION)
    throw new Error(`its version ${String(document.version)} is not ${SNAPSHOT_VERSION}`);
  if (!Number.isInteger(document.generation)) throw new Error("it has no generation number");
  if (!isRecord(document.sessions) || !isRecord(document.facts))
    throw new Error('it has no "sessions" or "facts" object');
  const state: FileState = {
    generation: document.generation!,
    sessions: new Map(),
    facts: new Map(),
    owners: new Map(),
    ledger: parseLedger(document.ledger),
  };
  for (const [id, session] of Object.entries(document.sessions)) {
    if (!isRecord(session) || !Array.isArray(session.messages))
      throw new Error(`session ${JSON.stringify(id)} has no messages array`);
    const messages = decodeStoredMessages(session.messages);
    const preview = previewOf(messages);
    state.sessions.set(id, {
      createdAt: Number(session.createdAt),
      accessedAt: Number(session.accessedAt),
      ...(session.agentName === undefined ? {} : { agentName: session.agentName }),
      ...(session.tags === undefined ? {} : { tags: session.tags }),
      ...(typeof session.title === "string" ? { title: session.title } : {}),
      ...(isRecord(session.metadata) ? { metadata: session.metadata } : {}),
      ...(preview === undefined ? {} : { preview }),
      ...(session.usage === undefined ? {} : { usage: totalsOf(session.usage) }),
      messages,
      ids: idsOf(session.messages),
      summaries: Array.isArray(session.summaries) ? session.summaries : [],
      ...(Array.isArray(session.reports) ? { reports: session.reports } : {}),
      ...(typeof session.userId === "string" ? { userId: session.userId } : {}),
    });
    if (typeof session.userId === "string") indexOwner(state, session.userId, id);
  }
  for (const [scope, facts] of Object.entries(document.facts)) {
    if (!isRecord(facts)) throw new Error(`facts of ${JSON.stringify(scope)} are not an object`);
    state.facts.set(scope, new Map(Object.entries(facts)));
  }
  return state;
}

/** The snapshot text for a state at a generation. */
export function serializeSnapshot(state: FileState, generation: number): string {
  // Null-prototype objects: a session, scope or fact key such as "__proto__" stays an own key.
  const sessions: SnapshotDocument["sessions"] = Object.create(null);
  for (const [id, { ids: _ids, preview: _preview, ...session }] of state.sessions)
    sessions[id] = { ...session, messages: encodeStoredMessages(session.messages) };
  const facts: SnapshotDocument["facts"] = Object.create(null);
  for (const [scope, map] of state.facts) facts[scope] = dictionaryOf(map);
  const document: SnapshotDocument = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    generation,
    sessions,
    facts,
    ...(state.ledger.size === 0 ? {} : { ledger: serializeLedger(state.ledger) }),
  };
  return `${JSON.stringify(document, null, 1)}\n`;
}

/** Width of the header's `committed` field, rewritten in place (padded with spaces) after each append. */
const COMMITTED_WIDTH = 16;

/**
 * A journal's first line: its format, the generation of the snapshot it continues, and
 * `committed`, the journal's length in bytes when its last write was acknowledged. A journal
 * shorter than that was truncated; bytes past it are at most one torn, unacknowledged write.
 */
export function journalHeader(generation: number): string {
  const prefix = `{"format":"${JOURNAL_FORMAT}","generation":${generation},"committed":`;
  const length = prefix.length + COMMITTED_WIDTH + 2;
  return `${prefix}${committedField(length)}}\n`;
}

/** The `committed` field's text for a length: the number padded with spaces to its fixed width. */
export function committedField(length: number): string {
  return String(length).padEnd(COMMITTED_WIDTH, " ");
}

export interface JournalHeader {
  generation: number;
  /** The acknowledged length; undefined in journals written before the field existed. */
  committed?: number;
  /** Byte position of the `committed` field in the file, to rewrite it in place. */
  committedAt?: number;
}

/** Parses a journal's first line; undefined when it is not a header. */
export function parseJournalHeader(line: string): JournalHeader | undefined {
  let header: { format?: unknown; generation?: unknown; committed?: unknown };
  try {
    header = JSON.parse(line) as typeof header;
  } catch {
    return undefined;
  }
  if (header?.format !== JOURNAL_FORMAT || !Number.isInteger(header.generation)) return undefined;
  const generation = header.generation as number;
  if (header.committed === undefined) return { generation };
  const marker = '"committed":';
  const at = line.indexOf(marker);
  if (!Number.isSafeInteger(header.committed) || at === -1 || Buffer.byteLength(line) !== line.length) return undefined;
  return { generation, committed: header.committed as number, committedAt: at + marker.length };
}

const operations = new Set([
  "append",
  "set",
  "cut",
  "clear",
  "fact",
  "unfact",
  "meta",
  "summary",
  "report",
  "prune",
  "own",
  "title",
  "forget",
]);

/** Parses one journal line; throws a plain Error when it is not an operation. */
export function parseOperation(line: string): JournalOperation {
  const operation = JSON.parse(line) as JournalOperation;
  if (!isRecord(operation) || !operations.has(operation.op)) throw new Error("it is not a journal operation");
  if (
    (operation.op === "append" || operation.op === "set" || operation.op === "cut") &&
    Array.isArray(operation.messages)
  )
    decodeStoredMessages(operation.messages);
  return operation;
}

/** One journal line's JSON (without its newline): messages in the stored encoding. */
export function serializeOperation(operation: JournalOperation): string {
  if (operation.op === "append" || operation.op === "set" || operation.op === "cut") {
    const messages = encodeStoredMessages(operation.messages);
    if (messages !== operation.messages) return JSON.stringify({ ...operation, messages });
  }
  return JSON.stringify(operation);
}

/** Applies one operation to the state, in place. Replaying the same journal always gives the same state. */
export function applyOperation(state: FileState, operation: JournalOperation): void {
  switch (operation.op) {
    case "cut":
    case "append": {
      const session = sessionFor(state, operation.session, operation.at);
      if (operation.op === "cut") {
        const removed = idsOf(session.messages.slice(operation.keep));
        session.messages = session.messages.slice(0, operation.keep);
        for (const id of removed) session.ids.delete(id);
        session.summaries = summariesAfterCut(session.summaries, operation.keep, removed);
      }
      const before = session.messages.length;
      for (const message of operation.messages) {
        if (message.id !== undefined) {
          if (session.ids.has(message.id)) continue;
          session.ids.add(message.id);
        }
        session.messages.push(message);
      }
      const stored = session.messages.length > before;
      const preview = operation.op === "cut" ? previewOf(session.messages) : previewOf(session.messages.slice(before));
      if (operation.op === "cut" || preview !== undefined) setPreview(session, preview);
      // An append adds its usage only when it stored a message; a cut (a turn's last write) always does.
      if (operation.usage && (stored || operation.op === "cut")) spend(state, session, operation.usage, operation.at);
      return;
    }
    case "set": {
      const session = sessionFor(state, operation.session, operation.at);
      session.messages = [...operation.messages];
      session.ids = idsOf(session.messages);
      setPreview(session, previewOf(session.messages));
      return;
    }
    case "title": {
      const session = state.sessions.get(operation.session);
      if (!session || session.title !== undefined) return;
      session.title = operation.title;
      if (operation.usage) spend(state, session, operation.usage, operation.at);
      return;
    }
    case "forget": {
      for (const id of operation.sessions) {
        if (state.sessions.get(id)?.userId === operation.userId) state.sessions.delete(id);
        state.facts.delete(`session:${id}`);
      }
      state.facts.delete(`user:${operation.userId}`);
      state.ledger.delete(operation.userId);
      state.owners.delete(operation.userId);
      return;
    }
    case "clear":
      state.sessions.delete(operation.session);
      return;
    case "fact": {
      let facts = state.facts.get(operation.scope);
      if (!facts) state.facts.set(operation.scope, (facts = new Map()));
      facts.set(operation.fact.key, operation.fact);
      return;
    }
    case "unfact": {
      const facts = state.facts.get(operation.scope);
      facts?.delete(operation.key);
      if (facts && facts.size === 0) state.facts.delete(operation.scope);
      return;
    }
    case "meta": {
      const session = sessionFor(state, operation.session, operation.at);
      if (operation.agentName !== undefined) session.agentName = operation.agentName;
      if (operation.tags !== undefined) session.tags = operation.tags;
      if (operation.title !== undefined) session.title = operation.title;
      if (operation.metadata !== undefined) session.metadata = operation.metadata;
      return;
    }
    case "summary": {
      const session = sessionFor(state, operation.session, operation.at);
      if (!session.summaries.some((summary) => summary.id === operation.summary.id))
        session.summaries.push(operation.summary);
      return;
    }
    case "report": {
      // A report never makes a session nor marks it used: it only describes a call on one.
      const session = state.sessions.get(operation.session);
      if (session) pushContextReport((session.reports ??= []), operation.report);
      return;
    }
    case "prune":
      for (const id of operation.sessions) state.sessions.delete(id);
      return;
    case "own": {
      if (state.sessions.has(operation.session)) return;
      sessionFor(state, operation.session, operation.at).userId = operation.userId;
      indexOwner(state, operation.userId, operation.session);
      return;
    }
  }
}

function setPreview(session: SessionState, preview: string | undefined): void {
  if (preview === undefined) delete session.preview;
  else session.preview = preview;
}

/** Adds `usage` to the session's totals and, when it has an owner, to the owner's running and daily totals. */
function spend(state: FileState, session: SessionState, usage: UsageTotals, at: number): void {
  session.usage = addTotals(session.usage ?? emptyTotals(), usage);
  if (session.userId !== undefined) addToLedger(state.ledger, session.userId, usage, at);
}

function indexOwner(state: FileState, userId: string, sessionId: string): void {
  let sessions = state.owners.get(userId);
  if (!sessions) state.owners.set(userId, (sessions = new Set()));
  sessions.add(sessionId);
}

/** The session, created when absent, its `accessedAt` moved to `at`. */
function sessionFor(state: FileState, id: string, at: number): SessionState {
  let session = state.sessions.get(id);
  if (!session) {
    session = { createdAt: at, accessedAt: at, messages: [], ids: new Set(), summaries: [] };
    state.sessions.set(id, session);
  }
  session.accessedAt = Math.max(session.accessedAt, at);
  return session;
}

function idsOf(messages: AgentMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.id !== undefined) ids.add(message.id);
  return ids;
}

/** A null-prototype object holding the map's entries, so no key can reach Object.prototype. */
function dictionaryOf<T>(map: Map<string, T>): Record<string, T> {
  const dictionary: Record<string, T> = Object.create(null);
  for (const [key, value] of map) dictionary[key] = value;
  return dictionary;
}

function isRecord(value: unknown): value is Record<string, any> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
