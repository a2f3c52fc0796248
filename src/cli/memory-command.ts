import { describeContent } from "../messages/content-text";
import { errorText } from "../errors/error-text";
import { createReadStream, createWriteStream } from "node:fs";
import { createInterface } from "node:readline";
import { once } from "node:events";
import cliProgress from "cli-progress";
import type { MemoryStore, SessionEntry } from "../stores/memory-store";
import { factScopeId } from "../stores/fact-scope";
import { backendOf } from "../stores/backend-of";
import { ordinaryFacts } from "../stores/working-memory-keys";
import { storedWorkingMemory } from "../tools/working-memory-profile";
import { validateSessionId } from "../messages/session-id";
import { CliError } from "./cli-error";
import { openStore, type OpenedStore } from "./open-store";
import { createOutput, formatTime, type Output } from "./output";
import { parseDuration } from "./parse-duration";
import {
  importedMessageId,
  parseSessionRecord,
  serializeRecord,
  type FactsRecord,
  type SessionRecord,
} from "./session-record";

export interface MemoryCommandOptions {
  store: string;
  json?: boolean;
}

/** Runs one `agentcore memory <action>` with the store opened and closed around it. */
export async function withStore<T>(
  options: MemoryCommandOptions,
  action: (opened: OpenedStore, output: Output) => Promise<T>,
): Promise<T> {
  const opened = await openStore(options.store);
  try {
    return await action(opened, createOutput(Boolean(options.json)));
  } finally {
    await opened.close();
  }
}

export async function listSessions({ store }: OpenedStore, output: Output): Promise<void> {
  const entries = await requireEntries(store);
  if (output.json) return output.data(entries);
  if (entries.length === 0) return output.line("No sessions.");
  output.table(
    ["session", "messages", "created", "last used", "agent"],
    entries.map((entry) => [
      entry.sessionId,
      String(entry.messageCount),
      formatTime(entry.createdAt),
      formatTime(entry.accessedAt),
      entry.agentName ?? "-",
    ]),
  );
}

export async function showSession(
  { store }: OpenedStore,
  output: Output,
  sessionId: string,
  userId?: string,
): Promise<void> {
  const messages = await backendOf(store).getMessages(checkId(sessionId));
  if (output.json) return output.data(messages);
  await showWorkingMemory(store, output, sessionId, userId);
  if (messages.length === 0) return output.line(`Session ${sessionId} has no messages.`);
  const answered = new Set(messages.flatMap((message) => (message.role === "tool" ? [message.toolCallId] : [])));
  for (const message of messages) {
    // A call that asked the user's approval and has no result yet waits for it (docs/approvals.md).
    const pending = (call: { id: string; approval?: unknown }) =>
      call.approval !== undefined && !answered.has(call.id) ? " [awaiting approval]" : "";
    const calls =
      message.role === "assistant" && message.toolCalls?.length
        ? ` → ${message.toolCalls.map((call) => `${call.name}(${JSON.stringify(call.arguments)})${pending(call)}`).join(", ")}`
        : "";
    const who = message.role === "tool" ? `tool ${message.name}` : message.role;
    output.line(`${formatTime(message.timestamp)}  ${who}: ${describeContent(message.content)}${calls}`);
  }
}

/** Prints the working memory of the session (and of the user, with `--user`), when one is stored. */
async function showWorkingMemory(
  store: MemoryStore,
  output: Output,
  sessionId: string,
  userId?: string,
): Promise<void> {
  const scopes = [
    factScopeId("session", { sessionId }),
    ...(userId === undefined ? [] : [factScopeId("user", { sessionId, userId: checkId(userId, "--user") })]),
  ];
  for (const scope of scopes) {
    const stored = storedWorkingMemory(await backendOf(store).getFacts(scope));
    if (stored === undefined) continue;
    output.line(`Working memory of ${scope}:`);
    if (stored.fields.length === 0) output.line("  (empty)");
    for (const field of stored.fields)
      output.line(`  ${field.path} = ${JSON.stringify(field.value)}  (${formatTime(field.updatedAt)})`);
    output.line("");
  }
}

export async function showFacts(
  { store }: OpenedStore,
  output: Output,
  sessionId: string,
  userId: string | undefined,
): Promise<void> {
  const scope =
    userId === undefined
      ? factScopeId("session", { sessionId: checkId(sessionId) })
      : factScopeId("user", { sessionId: checkId(sessionId), userId: checkId(userId, "--user") });
  const facts = ordinaryFacts(await backendOf(store).getFacts(scope)).sort((a, b) => a.key.localeCompare(b.key));
  if (output.json) return output.data(facts);
  if (facts.length === 0) return output.line(`No facts for ${scope}.`);
  output.table(
    ["key", "value", "updated"],
    facts.map((fact) => [fact.key, fact.value, formatTime(fact.updatedAt)]),
  );
}

/** Writes sessions as JSON lines (one session a line) to `out` or stdout. */
export async function exportSessions(
  { store }: OpenedStore,
  output: Output,
  options: { session?: string; out?: string },
): Promise<void> {
  const ids =
    options.session !== undefined
      ? [checkId(options.session)]
      : (await requireEntries(store)).map((entry) => entry.sessionId);
  const target: NodeJS.WritableStream = options.out ? createWriteStream(options.out) : process.stdout;
  const progress = startProgress(ids.length, "export");
  const write = async (record: SessionRecord | FactsRecord) => {
    if (!target.write(`${serializeRecord(record)}\n`)) await once(target, "drain");
  };
  let written = 0;
  for (const sessionId of ids) {
    await write(await readSession(store, sessionId));
    written++;
    progress?.increment();
  }
  progress?.stop();
  // The facts no session line carries: kept per user, or of a session without messages.
  if (options.session === undefined) {
    const adapted = backendOf(store);
    if (adapted.capabilities.factScopes) {
      const carried = new Set(ids.map((sessionId) => factScopeId("session", { sessionId }, { validated: true })));
      for (const scopeId of await adapted.factScopes()) {
        if (carried.has(scopeId)) continue;
        const facts = await adapted.getFacts(scopeId);
        if (facts.length) await write({ kind: "agentcore.facts", version: 1, scopeId, facts });
      }
    } else {
      process.stderr.write(
        "Warning: this store cannot list its fact scopes (it has no factScopes()), so facts kept per user are not exported.\n",
      );
    }
  }
  if (options.out) {
    (target as NodeJS.WritableStream & { end(callback: () => void): void }).end(() => {});
    await once(target, "finish");
    if (output.json) output.data({ exported: written, out: options.out });
    else process.stderr.write(`Exported ${written} session(s) to ${options.out}.\n`);
  }
}

/** Reads an export and writes each session into the store (idempotent: re-importing duplicates nothing). */
export async function importSessions({ store }: OpenedStore, output: Output, file: string): Promise<void> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  const records: (SessionRecord | FactsRecord)[] = [];
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim()) records.push(parseSessionRecord(line, lineNumber));
    }
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") throw new CliError(`cannot read ${file}: no such file`);
    throw error;
  }
  const progress = startProgress(records.length, "import");
  let messages = 0;
  let sessions = 0;
  let factScopes = 0;
  for (const record of records) {
    if (record.kind === "agentcore.facts") {
      for (const fact of record.facts) await backendOf(store).setFact(record.scopeId, fact);
      factScopes++;
    } else {
      messages += await writeSession(store, record);
      sessions++;
    }
    progress?.increment();
  }
  progress?.stop();
  if (output.json) output.data({ imported: sessions, messages, factScopes });
  else
    output.line(
      `Imported ${sessions} session(s), ${messages} new message(s)${factScopes ? `, the facts of ${factScopes} other scope(s)` : ""}.`,
    );
}

export async function clearSession({ store }: OpenedStore, output: Output, sessionId: string): Promise<void> {
  const scope = factScopeId("session", { sessionId: checkId(sessionId) });
  const adapted = backendOf(store);
  const [messages, facts] = await Promise.all([adapted.getMessages(sessionId), adapted.getFacts(scope)]);
  await adapted.clearMessages(sessionId);
  for (const fact of facts) await adapted.deleteFact(scope, fact.key);
  if (output.json) output.data({ sessionId, messages: messages.length, facts: facts.length });
  else output.line(`Cleared session ${sessionId}: ${messages.length} message(s), ${facts.length} fact(s).`);
}

export async function pruneSessions({ store }: OpenedStore, output: Output, olderThan: string): Promise<void> {
  const age = parseDuration(olderThan);
  const adapted = backendOf(store);
  if (!adapted.capabilities.prune) throw new CliError("this store cannot prune sessions (it has no prune())");
  const removed = await adapted.prune({ olderThan: Date.now() - age });
  if (output.json) return output.data({ pruned: removed });
  output.line(
    removed.length
      ? `Pruned ${removed.length} session(s) not used for ${olderThan}: ${removed.join(", ")}`
      : `No session is older than ${olderThan}.`,
  );
}

async function readSession(store: MemoryStore, sessionId: string): Promise<SessionRecord> {
  const adapted = backendOf(store);
  const [messages, facts, summaries, entry] = await Promise.all([
    adapted.getMessages(sessionId),
    adapted.getFacts(factScopeId("session", { sessionId })),
    adapted.capabilities.summaries ? adapted.getSummaries(sessionId) : undefined,
    adapted.getSession(sessionId),
  ]);
  return {
    kind: "agentcore.session",
    version: 1,
    sessionId,
    messages,
    facts,
    ...(summaries?.length ? { summaries } : {}),
    ...(entry ? { metadata: metadataOf(entry) } : {}),
  };
}

async function writeSession(store: MemoryStore, record: SessionRecord): Promise<number> {
  const adapted = backendOf(store);
  // Counted for the report; the append itself skips stored ids again (atomically where the store can).
  const known = new Set((await adapted.getMessages(record.sessionId)).map((message) => message.id).filter(Boolean));
  // A message without an id gets one derived from its place and content: importing twice adds it once.
  const identified = record.messages.map((message, position) =>
    message.id === undefined ? { ...message, id: importedMessageId(record.sessionId, position, message) } : message,
  );
  const fresh = identified.filter((message) => !known.has(message.id));
  await adapted.appendMessages(record.sessionId, fresh);
  const scope = factScopeId("session", { sessionId: record.sessionId });
  for (const fact of record.facts) await adapted.setFact(scope, fact);
  // Summaries only into a store that keeps them (kept in this process, they would vanish on exit).
  if (adapted.capabilities.summaries)
    for (const summary of record.summaries ?? []) await adapted.saveSummary(record.sessionId, summary);
  const { agentName, tags } = record.metadata ?? {};
  if (agentName !== undefined || tags !== undefined)
    await adapted.updateSession(record.sessionId, {
      ...(agentName === undefined ? {} : { agentName }),
      ...(tags === undefined ? {} : { tags }),
    });
  return fresh.length;
}

function metadataOf(entry: SessionEntry): NonNullable<SessionRecord["metadata"]> {
  return {
    createdAt: entry.createdAt,
    accessedAt: entry.accessedAt,
    ...(entry.agentName === undefined ? {} : { agentName: entry.agentName }),
    ...(entry.tags === undefined ? {} : { tags: entry.tags }),
  };
}

async function requireEntries(store: MemoryStore): Promise<SessionEntry[]> {
  const adapted = backendOf(store);
  if (!adapted.capabilities.entries)
    throw new CliError("this store cannot list its sessions (it has no entries()); name one with --session");
  return (await adapted.entries()).sort((a, b) => b.accessedAt - a.accessedAt);
}

function startProgress(total: number, label: string): cliProgress.SingleBar | undefined {
  if (!process.stderr.isTTY || total < 20) return undefined;
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {value}/{total} sessions`, stream: process.stderr, hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}

function checkId(id: string, flag = "session id"): string {
  try {
    return validateSessionId(id, flag);
  } catch (error) {
    throw new CliError(errorText(error));
  }
}
