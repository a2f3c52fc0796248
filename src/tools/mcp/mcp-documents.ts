// A server's resources and prompts in shapes an agent takes: text to put in a prompt, AgentMessages.
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceContents,
} from "@modelcontextprotocol/sdk/types.js";
import type { AgentMessage } from "../../messages/agent-message";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";
import { MCPClientError } from "../../errors/mcp-client-error";
import { base64ByteLength } from "../../messages/base64";
import { DEFAULT_MAX_MESSAGE_BYTES } from "../../messages/message-limits";
import { utf8ByteLength } from "../../messages/utf8-byte-length";
import { describeBlock } from "./mcp-tool-result";

/** A document the server offers (`resources/list`). Read it with `mcp.readResource(uri)`. */
export interface MCPResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size in bytes, when the server says. */
  size?: number;
}

/** One part of a resource as read: text, or bytes for binary data. */
export interface MCPResourcePart {
  uri: string;
  mimeType?: string;
  text?: string;
  bytes?: Uint8Array;
}

/** A resource as read (`resources/read`). */
export interface MCPResourceContents {
  uri: string;
  /** Every part: text as it is, binary parts decoded to bytes. */
  parts: MCPResourcePart[];
  /** The text parts, separated by a blank line (binary parts named with their type and size): ready for a prompt. */
  text: string;
}

/** Options of `mcp.readResource(uri, options)`. */
export interface MCPReadResourceOptions {
  /**
   * Largest resource accepted, in bytes: its text parts' UTF-8 bytes and its binary parts' decoded
   * bytes together. A larger one is an `MCPClientError` (`reason: "too-large"`), refused as soon
   * as the parts counted pass the limit, before any is decoded or joined.
   * @default 50 MiB (52,428,800), the default largest message (`maxMessageBytes`)
   */
  maxBytes?: number;
}

/** A prompt template the server offers (`prompts/list`). Fill it with `mcp.getPrompt(name, args)`. */
export interface MCPPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required: boolean }>;
}

/** A prompt filled in by the server (`prompts/get`). */
export interface MCPPromptResult {
  description?: string;
  /** The prompt's messages, as agentcore messages (embedded resources inline, media named). */
  messages: AgentMessage[];
  /** The messages' text, separated by a blank line: for `agent.run(prompt.text)` when it is one user message. */
  text: string;
}

export function toMCPResource(resource: Resource): MCPResource {
  return {
    uri: resource.uri,
    name: resource.name,
    ...(resource.title === undefined ? {} : { title: resource.title }),
    ...(resource.description === undefined ? {} : { description: resource.description }),
    ...(resource.mimeType === undefined ? {} : { mimeType: resource.mimeType }),
    ...(resource.size === undefined ? {} : { size: resource.size }),
  };
}

export function toMCPResourceContents(uri: string, result: ReadResourceResult): MCPResourceContents {
  const parts = result.contents.map(toPart);
  const text = result.contents
    .map((content) => ("text" in content && typeof content.text === "string" ? content.text : describe(content)))
    .join("\n\n");
  return { uri, parts, text };
}

/** `readResource`'s `maxBytes`, checked (an `InvalidArgumentError` when it is not a number of bytes). */
export function resourceByteLimit(options: MCPReadResourceOptions | undefined): number {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  if (typeof maxBytes !== "number" || !(maxBytes >= 0))
    throw new InvalidArgumentError({
      argument: "maxBytes",
      value: maxBytes,
      message: "readResource(uri, { maxBytes }) takes a number of bytes, 0 or more.",
    });
  return maxBytes;
}

/**
 * Throws an `MCPClientError` (`reason: "too-large"`) when a read resource's parts pass `maxBytes`,
 * counted part by part in order and stopping at the part that takes the sum over it, without
 * decoding any: a blob counts what its base64 length decodes to; a text its UTF-8 bytes, or its
 * length alone when that already passes (no scan).
 */
export function assertResourceSize(server: string, uri: string, result: ReadResourceResult, maxBytes: number): void {
  let bytes = 0;
  for (const content of result.contents) {
    if ("text" in content && typeof content.text === "string") {
      const text = content.text;
      bytes += text.length > maxBytes - bytes ? text.length : utf8ByteLength(text);
    } else if ("blob" in content && typeof content.blob === "string") bytes += base64ByteLength(content.blob);
    if (bytes > maxBytes)
      throw new MCPClientError({
        server,
        reason: "too-large",
        message: `MCP server "${server}" sent resource "${uri.slice(0, 200)}" larger than the limit of ${maxBytes} bytes (readResource's maxBytes).`,
      });
  }
}

export function toMCPPrompt(prompt: Prompt): MCPPrompt {
  return {
    name: prompt.name,
    ...(prompt.title === undefined ? {} : { title: prompt.title }),
    ...(prompt.description === undefined ? {} : { description: prompt.description }),
    arguments: (prompt.arguments ?? []).map((argument) => ({
      name: argument.name,
      ...(argument.description === undefined ? {} : { description: argument.description }),
      required: argument.required === true,
    })),
  };
}

export function toMCPPromptResult(result: GetPromptResult): MCPPromptResult {
  const messages: AgentMessage[] = result.messages.map((message) => ({
    role: message.role,
    content: describeBlock(message.content),
  }));
  return {
    ...(result.description === undefined ? {} : { description: result.description }),
    messages,
    text: messages.map((message) => message.content).join("\n\n"),
  };
}

function toPart(content: ResourceContents): MCPResourcePart {
  const base = { uri: content.uri, ...(content.mimeType ? { mimeType: content.mimeType } : {}) };
  if ("text" in content && typeof content.text === "string") return { ...base, text: content.text };
  if ("blob" in content && typeof content.blob === "string") return { ...base, bytes: fromBase64(content.blob) };
  return base;
}

function describe(content: ResourceContents): string {
  return describeBlock({ type: "resource", resource: content } as Parameters<typeof describeBlock>[0]);
}

/** Base64 to bytes without Buffer (edge runtimes). */
function fromBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}
