// The key layout of the Redis stores, shared by RedisMemoryStore (ioredis) and
// UpstashRedisMemoryStore (@upstash/redis): one database can be used through either (Upstash
// serves both the Redis protocol and REST), so both must name and encode things the same way.
import { encodeStoredMessageJson } from "../stored-json";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import type { AgentMessage } from "../../messages/agent-message";
import { validateScopeId, validateSessionId } from "../../messages/session-id";
import type { SessionEntry } from "../memory-store";
import { parseSessionTags } from "../parse-session-tags";
import type { SessionMetadata } from "../session-metadata";
import { CorruptStoreError } from "../../errors/corrupt-store-error";
import { sessionTotals } from "./redis-ledger";

/** The keys of one session (or fact scope). */
export interface RedisSessionKeys {
  messages: string;
  ids: string;
  meta: string;
  summaries: string;
  summaryIds: string;
  /** The session's context reports (a list), deleted with the session. */
  reports: string;
  facts: string;
  lock: string;
  /** A stop asked for the session's running turn (the Upstash store's polled key, see upstash-stop-signals.ts). */
  stop: string;
}

/** The default key prefix. */
export const defaultRedisPrefix = "agentcore:";

/** Checks the `prefix` option: a string of at most 128 characters without `{` or `}` (hash tags). */
export function redisPrefixOption(prefix: string | undefined): string {
  const value = prefix ?? defaultRedisPrefix;
  if (typeof value !== "string" || /[{}]/.test(value) || value.length > 128) {
    throw new InvalidArgumentError({
      argument: "prefix",
      value: prefix,
      message: "prefix must be a string of at most 128 characters without { or }.",
    });
  }
  return value;
}

/**
 * The keys of a session: `<prefix>{e}:messages`, `:ids`, `:meta`, `:summaries`, `:summary-ids`,
 * `:context-reports`, `:facts`, `:lock`, with `e` the URI-encoded id. encodeURIComponent is injective and escapes
 * `{ } : /` and spaces: an id can neither end the hash tag early nor look like another id's key.
 * Validates the id first (`argument` "scopeId" for fact scopes).
 */
export function redisSessionKeys(prefix: string, sessionId: string, argument = "sessionId"): RedisSessionKeys {
  if (argument === "scopeId") validateScopeId(sessionId);
  else validateSessionId(sessionId, argument);
  const base = `${prefix}{${encodeURIComponent(sessionId)}}`;
  return {
    messages: `${base}:messages`,
    ids: `${base}:ids`,
    meta: `${base}:meta`,
    summaries: `${base}:summaries`,
    summaryIds: `${base}:summary-ids`,
    reports: `${base}:context-reports`,
    facts: `${base}:facts`,
    lock: `${base}:lock`,
    stop: `${base}:stop`,
  };
}

/** The set of the scopes that hold facts (for export; the stores never SCAN). */
export function redisFactScopesKey(prefix: string): string {
  return `${prefix}fact-scopes`;
}

/** The KEYS of the session scripts (redis-scripts.ts), in their order. */
export function sessionScriptKeys(keys: RedisSessionKeys): string[] {
  return [keys.messages, keys.ids, keys.meta, keys.summaries, keys.summaryIds];
}

/** The KEYS of the fenced session scripts (append, replace, cut, touch, summary): the session's five data keys, then its lock. */
export function fencedScriptKeys(keys: RedisSessionKeys): string[] {
  return [...sessionScriptKeys(keys), keys.lock];
}

/**
 * The ARGV pairs of the append and replace scripts: ("" | "#" + id, json) per message. A message JSON
 * cannot encode (a BigInt or a cycle in tool arguments) is a `StoreError` naming it, as on every store.
 */
export function messagesArguments(
  messages: AgentMessage[],
  store: string,
  operation: string,
  sessionId: string,
): string[] {
  return messages.flatMap((message, index) => [
    message.id === undefined ? "" : `#${message.id}`,
    encodeStoredMessageJson(message, { store, operation, sessionId, record: `message ${index}` }),
  ]);
}

/** The fields of `updateSession`'s touch script (the update checked by `checkSessionUpdate`). */
export function sessionMetaFields(metadata: {
  agentName?: string;
  tags?: string[];
  title?: string;
  metadataJson?: string;
}): string[] {
  const fields: string[] = [];
  if (metadata.agentName !== undefined) fields.push("agentName", metadata.agentName);
  if (metadata.tags !== undefined) fields.push("tags", JSON.stringify(metadata.tags));
  if (metadata.title !== undefined) fields.push("title", metadata.title);
  if (metadata.metadataJson !== undefined) fields.push("metadata", metadata.metadataJson);
  return fields;
}

/** A session's entry from its meta hash and message count; undefined when it has no metadata. */
export function redisSessionEntry(
  store: string,
  sessionId: string,
  meta: Record<string, string>,
  count: number,
  metaKey: string,
): SessionEntry | undefined {
  if (meta.createdAt === undefined) return undefined;
  const where = { store, operation: "getSession", sessionId, path: metaKey };
  return {
    sessionId,
    createdAt: Number(meta.createdAt),
    accessedAt: Number(meta.accessedAt ?? meta.createdAt),
    messageCount: count,
    ...(meta.userId === undefined ? {} : { userId: meta.userId }),
    ...(meta.agentName === undefined ? {} : { agentName: meta.agentName }),
    ...(meta.tags === undefined ? {} : { tags: parseSessionTags(meta.tags, where) }),
    ...(meta.title === undefined ? {} : { title: meta.title }),
    ...(meta.metadata === undefined ? {} : { metadata: parseStoredMetadata(meta.metadata, where) }),
    usage: sessionTotals(meta),
    ...(meta.preview === undefined ? {} : { preview: meta.preview }),
  };
}

/** A session's stored `metadata` (a JSON object); anything else is a `CorruptStoreError` naming the session. */
function parseStoredMetadata(
  text: string,
  where: { store: string; operation: string; sessionId: string; path: string },
): SessionMetadata {
  let value: unknown;
  let cause: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    cause = error;
  }
  if (value !== null && typeof value === "object" && !Array.isArray(value)) return value as SessionMetadata;
  throw new CorruptStoreError({
    ...where,
    message: `The ${where.store} holds corrupt metadata for session "${where.sessionId}" (${where.path}): its metadata is not a JSON object. Repair or delete that session's metadata.`,
    ...(cause === undefined ? {} : { cause }),
  });
}

/** Checks a duration option in ms: positive (rounded up), or 0 when omitted. */
export function positiveMillisecondsOption(value: number | undefined, argument: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({
      argument,
      value,
      message: `${argument} must be a positive number of milliseconds, got ${String(value)}.`,
    });
  }
  return Math.ceil(value);
}

/**
 * Refuses the `ttl` option, renamed `ttlMs`: it was in milliseconds where Redis users expect
 * seconds (`ttl: 3600` expired a conversation after 3.6 s), so an old `ttl` fails loudly.
 */
export function rejectRenamedTtl(store: string, options: object): void {
  const value = (options as { ttl?: unknown }).ttl;
  if (value === undefined) return;
  const meant = typeof value === "number" && Number.isFinite(value) ? `ttl: ${value} meant ${value / 1000} s; ` : "";
  throw new InvalidArgumentError({
    argument: "ttl",
    value,
    message: `new ${store}() has no option "ttl" any more: it was renamed to ttlMs and is in milliseconds (Redis's own TTLs are in seconds). ${meant}for an hour pass ttlMs: 3_600_000.`,
  });
}
