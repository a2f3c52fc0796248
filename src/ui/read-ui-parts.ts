import { MAX_APPROVAL_REASON_LENGTH, type ToolCallApproval } from "../messages/agent-message";
import type { ProviderOptions } from "../messages/content-parts";
import { deniedToolContent } from "../messages/denied-tool-content";
import { messageIdIssue } from "../messages/message-ids";
import { readProviderMetadata } from "../messages/provider-metadata";
import { dataContentProblem } from "../messages/data-content";
import { serializeToolResult } from "../messages/serialize-tool-result";
import { toolResultContent } from "./tool-output";

/**
 * Reading the parts of one untrusted UI message (AI SDK v4 or v5+ shape) into segments, the
 * conversion's intermediate form. Mirrors the `ai` package's `convertToModelMessages` part by part
 * (src/ui/convert-side-by-side.test.ts); each malformed field is an `Issue` naming its path.
 */

export type ToolSegment = {
  kind: "tool";
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  /** The result the model reads; none for a call whose approval was answered but that has not run (`approval-responded`). */
  content: ReturnType<typeof toolResultContent> | undefined;
  /** The call's approval: its id and, once the user answered, the answer. */
  approval?: ToolCallApproval;
  /** Run by the provider: the text after it in the same step is the same model turn. */
  providerExecuted?: true;
};

export type Segment =
  | { kind: "text"; text: string; providerOptions?: ProviderOptions }
  | { kind: "reasoning"; text: string; providerOptions?: ProviderOptions }
  | { kind: "step" }
  | { kind: "file"; mediaType: string; url: string; filename?: string; providerOptions?: ProviderOptions }
  | ToolSegment;

export class Issue extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const mediaTypePattern = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+$/;
const toolStates = new Set([
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
]);

export function readSegments(message: Record<string, unknown>): Segment[] {
  if (Array.isArray(message.parts)) {
    return message.parts.flatMap((part, index) => readPart(part, `parts.${index}`));
  }
  if (typeof message.content !== "string")
    throw new Issue("parts", "expected `parts` (an array) or `content` (a string)");
  const segments: Segment[] = message.content.length > 0 ? [{ kind: "text", text: message.content }] : [];
  if (message.toolInvocations !== undefined) {
    if (!Array.isArray(message.toolInvocations)) throw new Issue("toolInvocations", "expected an array");
    message.toolInvocations.forEach((invocation, index) => {
      const segment = readInvocationV4(invocation, `toolInvocations.${index}`);
      if (segment) segments.push(segment);
    });
  }
  return segments;
}

function readPart(part: unknown, path: string): Segment[] {
  if (part === null || typeof part !== "object" || Array.isArray(part)) throw new Issue(path, "expected a part object");
  const value = part as Record<string, unknown>;
  const type = value.type;
  if (typeof type !== "string") throw new Issue(`${path}.type`, "expected a string");
  switch (type) {
    case "text":
    case "reasoning":
      if (typeof value.text !== "string") throw new Issue(`${path}.text`, "expected a string");
      return [{ kind: type, text: value.text, ...readProviderOptions(value.providerMetadata, path) }];
    case "step-start":
      return [{ kind: "step" }];
    case "file":
      return [readFilePart(value, path)];
    case "tool-invocation": {
      const segment = readInvocationV4(value.toolInvocation, `${path}.toolInvocation`);
      return segment ? [segment] : [];
    }
    case "dynamic-tool": {
      if (typeof value.toolName !== "string" || !toolNamePattern.test(value.toolName)) {
        throw new Issue(`${path}.toolName`, "expected a tool name of 1-64 letters, digits, _ or -");
      }
      const segment = readToolPart(value, value.toolName, path);
      return segment ? [segment] : [];
    }
    default:
      if (type.startsWith("tool-")) {
        const toolName = type.slice("tool-".length);
        if (!toolNamePattern.test(toolName))
          throw new Issue(`${path}.type`, "expected tool-<name> with a name of 1-64 letters, digits, _ or -");
        const segment = readToolPart(value, toolName, path);
        return segment ? [segment] : [];
      }
      return []; // sources, data parts and future part types carry nothing for the model
  }
}

/** A `file` part: its URL (a base64 `data:` URL or an http(s) URL) is checked here, naming the part. */
function readFilePart(value: Record<string, unknown>, path: string): Segment {
  if (typeof value.mediaType !== "string" || value.mediaType.length > 255 || !mediaTypePattern.test(value.mediaType))
    throw new Issue(`${path}.mediaType`, "expected a media type such as image/png or application/pdf");
  if (typeof value.url !== "string") throw new Issue(`${path}.url`, "expected a string (a data: or http(s) URL)");
  const problem = dataContentProblem(value.url);
  if (problem !== undefined) throw new Issue(`${path}.url`, `the file's URL ${problem}`);
  if (value.filename !== undefined && (typeof value.filename !== "string" || value.filename.length > 1024))
    throw new Issue(`${path}.filename`, "expected a string of at most 1024 characters");
  return {
    kind: "file",
    mediaType: value.mediaType,
    url: value.url,
    ...(value.filename === undefined ? {} : { filename: value.filename as string }),
    ...readProviderOptions(value.providerMetadata, path),
  };
}

/** A part's `providerMetadata` as its `providerOptions`: checked and copied as plain JSON (`readProviderMetadata`). */
function readProviderOptions(value: unknown, path: string): { providerOptions?: ProviderOptions } {
  if (value === undefined || value === null) return {};
  const read = readProviderMetadata(value);
  if ("problem" in read) throw new Issue(`${path}.providerMetadata`, read.problem);
  return { providerOptions: read.metadata };
}

/**
 * A tool part with an outcome: its call and the result the model reads. As the AI SDK does: an
 * `output-error` call's input is `input`, else `rawInput` (what the model sent that failed to
 * parse); a denial gives the model the user's reason; an `approval-responded` call is kept with
 * the user's answer and no result (the server runs or denies it); an `approval-requested` call with
 * its approval and no result (it awaits the user). Calls without an outcome or an approval are
 * dropped, never sent.
 */
function readToolPart(part: Record<string, unknown>, toolName: string, path: string): ToolSegment | undefined {
  const toolCallId = readToolCallId(part.toolCallId, `${path}.toolCallId`);
  if (typeof part.state !== "string" || !toolStates.has(part.state)) {
    throw new Issue(`${path}.state`, `expected one of ${[...toolStates].join(", ")}`);
  }
  let content: ToolSegment["content"];
  let input = part.input;
  const approval = readApproval(part, path);
  if (part.state === "output-available") content = toolResultContent(part.output);
  else if (part.state === "output-error") {
    content = `Error: ${typeof part.errorText === "string" ? part.errorText : "the tool failed"}`;
    input = input ?? rawInputObject(part.rawInput);
  } else if (part.state === "output-denied") content = deniedToolContent(approval?.reason);
  else if (part.state === "approval-requested") {
    // Awaiting the user: kept with its approval and no result, as the `ai` package keeps it (the
    // stored form of a pending call). One without an approval id cannot be answered: never sent.
    if (approval === undefined) return undefined;
    if (approval.approved !== undefined)
      throw new Issue(`${path}.approval.approved`, "an approval-requested part has no answer yet");
  } else if (part.state === "approval-responded") {
    if (approval?.approved === undefined)
      throw new Issue(
        `${path}.approval.approved`,
        "expected the user's answer (a boolean) in an approval-responded part",
      );
  } else return undefined; // incomplete: never sent
  return {
    kind: "tool",
    toolCallId,
    toolName,
    input: readInput(input, `${path}.input`),
    content,
    ...(approval ? { approval } : {}),
    ...(part.providerExecuted === true ? { providerExecuted: true as const } : {}),
  };
}

/** A tool part's `approval`: `{ id, approved?, reason? }`, each field checked (an `output-denied` part may lack it). */
function readApproval(part: Record<string, unknown>, path: string): ToolCallApproval | undefined {
  const value = part.approval;
  if (value === undefined || value === null) {
    if (part.state === "approval-responded")
      throw new Issue(`${path}.approval`, "expected the approval and its answer");
    return undefined;
  }
  if (typeof value !== "object" || Array.isArray(value)) throw new Issue(`${path}.approval`, "expected an object");
  const { id, approved, reason } = value as Record<string, unknown>;
  if (typeof id !== "string" || id.length === 0 || id.length > 512)
    throw new Issue(`${path}.approval.id`, "expected a non-empty string of at most 512 characters");
  const issue = messageIdIssue(id);
  if (issue !== undefined) throw new Issue(`${path}.approval.id`, `the approval id ${issue}`);
  if (approved !== undefined && typeof approved !== "boolean")
    throw new Issue(`${path}.approval.approved`, "expected a boolean");
  if (reason !== undefined && (typeof reason !== "string" || reason.length > MAX_APPROVAL_REASON_LENGTH))
    throw new Issue(`${path}.approval.reason`, `expected a string of at most ${MAX_APPROVAL_REASON_LENGTH} characters`);
  return {
    id,
    ...(approved === undefined ? {} : { approved }),
    ...(reason === undefined ? {} : { reason: reason as string }),
  };
}

/** `rawInput` as an object when it is one or is JSON text of one; anything else (unparseable text) as `{}`. */
function rawInputObject(raw: unknown): unknown {
  if (typeof raw === "string") {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  }
  return raw !== null && typeof raw === "object" && !Array.isArray(raw) ? raw : undefined;
}

function readInvocationV4(invocation: unknown, path: string): ToolSegment | undefined {
  if (invocation === null || typeof invocation !== "object" || Array.isArray(invocation))
    throw new Issue(path, "expected a tool invocation object");
  const value = invocation as Record<string, unknown>;
  const toolCallId = readToolCallId(value.toolCallId, `${path}.toolCallId`);
  if (typeof value.toolName !== "string" || !toolNamePattern.test(value.toolName)) {
    throw new Issue(`${path}.toolName`, "expected a tool name of 1-64 letters, digits, _ or -");
  }
  if (value.state !== "result" && value.state !== "call" && value.state !== "partial-call") {
    throw new Issue(`${path}.state`, 'expected "partial-call", "call" or "result"');
  }
  if (value.state !== "result") return undefined; // incomplete: never sent
  return {
    kind: "tool",
    toolCallId,
    toolName: value.toolName,
    input: readInput(value.args, `${path}.args`),
    content: serializeToolResult(value.result),
  };
}

function readToolCallId(value: unknown, path: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 512)
    throw new Issue(path, "expected a non-empty string of at most 512 characters");
  const issue = messageIdIssue(value);
  if (issue !== undefined) throw new Issue(path, `the tool call id ${issue}`);
  return value;
}

function readInput(value: unknown, path: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value))
    throw new Issue(path, "expected the tool input to be a JSON object");
  return value as Record<string, unknown>;
}
