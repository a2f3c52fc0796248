/**
 * Content parts of a message, in the AI SDK's `ModelMessage` part shapes (docs/messages.md), so a
 * user of the AI SDK meets no new vocabulary. A string `content` stays valid everywhere; parts are
 * the general form.
 */

/**
 * Binary content: base64 text, a `data:` URL (`data:<mediaType>;base64,<payload>`), an `http(s)` URL
 * (as a string or a `URL`; never fetched by agentcore), or the bytes themselves.
 */
export type DataContent = string | Uint8Array | URL;

/** Options a provider adapter may read (an Anthropic thinking signature, a cache hint); opaque to agentcore. */
export type ProviderOptions = Record<string, unknown>;

/** Text. */
export interface TextPart {
  type: "text";
  text: string;
  providerOptions?: ProviderOptions;
}

/** An image: its bytes, base64, a `data:` URL or a remote URL. `mediaType` (e.g. `image/png`) when known. */
export interface ImagePart {
  type: "image";
  image: DataContent;
  mediaType?: string;
  /** The name of the file it came from (a chat attachment), kept so the UI can show it again. Providers do not get it. */
  filename?: string;
  providerOptions?: ProviderOptions;
}

/** A file (a PDF, an audio clip, any document): its bytes, base64, a `data:` URL or a remote URL. */
export interface FilePart {
  type: "file";
  data: DataContent;
  /** IANA media type, e.g. `application/pdf`. */
  mediaType: string;
  filename?: string;
  providerOptions?: ProviderOptions;
}

/**
 * The model's reasoning (extended thinking). A provider's signature or redacted data is kept in
 * `providerOptions` as the provider adapter put it there, and sent back exactly.
 */
export interface ReasoningPart {
  type: "reasoning";
  text: string;
  providerOptions?: ProviderOptions;
}

/** What a user message may hold. */
export type UserContentPart = TextPart | ImagePart | FilePart;
/** What an assistant message may hold beside its `toolCalls`. */
export type AssistantContentPart = TextPart | ReasoningPart;
/** What a tool result may hold (a file: a PDF, the audio an MCP tool returned). */
export type ToolContentPart = TextPart | ImagePart | FilePart;
/** Any content part. */
export type ContentPart = TextPart | ImagePart | FilePart | ReasoningPart;
/** The content of any message: a string or its parts. */
export type MessageContent = string | readonly ContentPart[];

/** The part types each role may hold (system messages hold a string only). */
export const partTypesByRole = {
  user: ["text", "image", "file"],
  assistant: ["text", "reasoning"],
  tool: ["text", "image", "file"],
} as const satisfies Record<"user" | "assistant" | "tool", readonly ContentPart["type"][]>;

/** True for a `Uint8Array` (a Node `Buffer` included), from this realm or another. */
export function isBytes(value: unknown): value is Uint8Array {
  return (
    value instanceof Uint8Array ||
    (typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object Uint8Array]")
  );
}

/** True for a WHATWG `URL`, from this realm or another. */
export function isUrl(value: unknown): value is URL {
  return (
    value instanceof URL ||
    (typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object URL]")
  );
}
