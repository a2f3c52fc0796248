/**
 * Size bounds of a message, checked where messages enter (`agent.run` input, `streamText` messages,
 * imported sessions). History read back from a store is not bounded again: it was checked when it
 * entered, and a lowered limit must not make a stored session unreadable.
 */
export interface MessageLimits {
  /**
   * Largest part, in bytes: the decoded bytes of an image or file (bytes, base64 or a `data:` URL),
   * the characters of a remote URL, the UTF-8 bytes of text. @default 20 MiB (20,971,520)
   */
  maxPartBytes?: number;
  /**
   * Largest message, in bytes: its parts together, or its string content. @default 50 MiB (52,428,800)
   */
  maxMessageBytes?: number;
}

/** 20 MiB: above what every hosted model accepts for one image (OpenAI 20 MB, Anthropic 5 MB) or PDF (32 MB request). */
export const DEFAULT_MAX_PART_BYTES = 20 * 1024 * 1024;
/** 50 MiB: a few large attachments in one message. */
export const DEFAULT_MAX_MESSAGE_BYTES = 50 * 1024 * 1024;

/** The limits in force: each field given, else its default. */
export type ResolvedMessageLimits = Required<MessageLimits>;

export const defaultMessageLimits: ResolvedMessageLimits = Object.freeze({
  maxPartBytes: DEFAULT_MAX_PART_BYTES,
  maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES,
});

/** No bounds: for history read back from a store. */
export const noMessageLimits: ResolvedMessageLimits = Object.freeze({
  maxPartBytes: Number.POSITIVE_INFINITY,
  maxMessageBytes: Number.POSITIVE_INFINITY,
});

export function resolveMessageLimits(limits: MessageLimits | undefined): ResolvedMessageLimits {
  if (limits === undefined) return defaultMessageLimits;
  if (limits.maxPartBytes !== undefined && limits.maxMessageBytes !== undefined) return limits as ResolvedMessageLimits;
  return {
    maxPartBytes: limits.maxPartBytes ?? DEFAULT_MAX_PART_BYTES,
    maxMessageBytes: limits.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
  };
}
