// A server's resources and prompts in shapes an agent takes: text to put in a prompt, AgentMessages.
import type {
  GetPromptResult,
  Prompt,
  ReadResourceResult,
  Resource,
  ResourceContents,
} from "@modelcontextprotocol/sdk/types.js";
import type { AgentMessage } from "../../messages/agent-message";
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
