// convertToModelMessages side by side with the ai package's over a corpus of useChat payloads
// (__fixtures__/use-chat-corpus.ts), on ai 6 and ai 7 (`ai-v7`), and the corpus back through
// convertToUIMessages.
import { convertToModelMessages as ai6ConvertToModelMessages, type ModelMessage } from "ai";
import { convertToModelMessages as ai7ConvertToModelMessages } from "ai-v7";
import { describe, expect, it } from "vitest";
import { InvalidMessageError } from "../errors/invalid-message-error";
import type { AgentMessage } from "../messages/agent-message";
import { convertToModelMessages } from "./convert-to-model-messages";
import { convertToUIMessages } from "./convert-to-ui-messages";
import { corpus, pdf, png } from "./__fixtures__/use-chat-corpus";

/**
 * Side by side with the `ai` package's own `convertToModelMessages` over a corpus of `useChat`
 * payloads, compared part by part after normalising the known shape differences:
 * - theirs puts tool calls in assistant content and results in tool messages (or, for
 *   provider-executed calls, in the assistant content); ours has `toolCalls` and `tool` messages.
 *   Both become "calls with their results" on the assistant message of their step;
 * - an approval: theirs is a `tool-approval-request` part beside the call and a
 *   `tool-approval-response` part in the tool message; ours is the call's `approval` (its id, and the
 *   answer while the call has not run) and the tool message's `approval` (the answer). Both become
 *   the call's `approval: { id, approved?, reason? }`; a call answered and not run (`approval-responded`)
 *   and a call awaiting the user (`approval-requested`) are kept on both sides without a result;
 * - a provider-executed call is `providerExecuted: true` on both sides;
 * - theirs gives every file part as a file part; ours gives `image/*` as an image part (its filename kept);
 *   ai 7's file data is tagged (`{ type: "url", url }`, `{ type: "data", data }`), read as its value;
 * - ai 7 leaves out a call still awaiting approval (`approval-requested`) that a later user message
 *   went past; ours keeps it (the run denies or refuses it, `pendingApprovals`): on the ai 7 line
 *   such calls are left out of ours before comparing;
 * - ai 7 answers a call denied on the page (`approval-responded`, not approved) with an
 *   `execution-denied` tool result at once; ours keeps the call with its denial (`approval`) and the
 *   run answers it. The denial is in the approval on both sides, so that result is not compared;
 * - tool outputs are text on our side: a text output as is, JSON as its text, an error as "Error: …";
 * - our text parts without provider options are one string, lines joined.
 */

type Normal =
  | { role: "system" | "user"; parts: unknown[] }
  | {
      role: "assistant";
      parts: unknown[];
      calls: {
        id: string;
        name: string;
        input: unknown;
        result?: string;
        approval?: { id: string; approved?: boolean; reason?: string };
        providerExecuted?: true;
      }[];
    };

function outputText(output: { type: string; value?: unknown }): string {
  switch (output.type) {
    case "text":
      return output.value as string;
    case "json":
      return JSON.stringify(output.value);
    case "error-text":
      return `Error: ${output.value as string}`;
    default:
      return `Error: ${JSON.stringify(output.value)}`;
  }
}

function clean<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** Adjacent text parts without provider options are one text, lines joined (our string content). */
function joinTexts(parts: { type: string; text?: string; providerOptions?: unknown }[]): unknown[] {
  const joined: { type: string; text?: string; providerOptions?: unknown }[] = [];
  for (const part of parts) {
    const last = joined[joined.length - 1];
    if (part.type === "text" && !part.providerOptions && last?.type === "text" && !last.providerOptions)
      last.text = `${last.text}\n${part.text}`;
    else joined.push({ ...part });
  }
  return joined.filter((part) => !(part.type === "text" && part.text === "" && !part.providerOptions));
}

/** A file's data as ai 6 gives it: ai 7 tags it (`{ type: "url", url }`, `{ type: "data", data }`). */
function untagged(data: unknown): unknown {
  if (data === null || typeof data !== "object" || !("type" in data)) return data;
  const tagged = data as { type: string; url?: unknown; data?: unknown };
  return tagged.type === "url" ? tagged.url : tagged.type === "data" ? tagged.data : data;
}

function normaliseTheirs(messages: ModelMessage[]): Normal[] {
  const output: Normal[] = [];
  const results = new Map<string, string>();
  const approvalIds = new Map<string, string>();
  const answers = new Map<string, { approved: boolean; reason?: string }>();
  for (const message of messages) {
    if (message.role === "tool" || message.role === "assistant")
      for (const part of typeof message.content === "string" ? [] : message.content) {
        if (part.type === "tool-result" && part.output.type !== "execution-denied")
          results.set(part.toolCallId, outputText(part.output));
        if (part.type === "tool-approval-request") approvalIds.set(part.toolCallId, part.approvalId);
        if (part.type === "tool-approval-response")
          answers.set(part.approvalId, {
            approved: part.approved,
            ...(part.reason === undefined ? {} : { reason: part.reason }),
          });
      }
  }
  const approvalOf = (toolCallId: string) => {
    const id = approvalIds.get(toolCallId);
    return id === undefined ? {} : { approval: { id, ...answers.get(id) } };
  };
  for (const message of clean(messages)) {
    if (message.role === "system") output.push({ role: "system", parts: [{ type: "text", text: message.content }] });
    else if (message.role === "user") {
      const parts =
        typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      output.push({
        role: "user",
        parts: joinTexts(
          parts.map((part) => {
            if (part.type !== "file") return part;
            const data = untagged(part.data);
            if (!part.mediaType.startsWith("image/")) return { ...part, data };
            const filename = part.filename === undefined ? {} : { filename: part.filename };
            return { type: "image", image: data, mediaType: part.mediaType, ...filename };
          }) as { type: string }[],
        ),
      });
    } else if (message.role === "assistant") {
      const content =
        typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      const calls = content.flatMap((part) =>
        part.type === "tool-call" && (results.has(part.toolCallId) || approvalIds.has(part.toolCallId))
          ? [
              {
                id: part.toolCallId,
                name: part.toolName,
                input: part.input,
                result: results.get(part.toolCallId),
                ...approvalOf(part.toolCallId),
                ...(part.providerExecuted ? { providerExecuted: true as const } : {}),
              },
            ]
          : [],
      );
      const parts = joinTexts(content.filter((part) => part.type === "text" || part.type === "reasoning"));
      if (parts.length > 0 || calls.length > 0) output.push({ role: "assistant", parts, calls });
    }
  }
  return output;
}

function normaliseOurs(messages: AgentMessage[]): Normal[] {
  const results = new Map<string, string>();
  const answers = new Map<string, { approved: boolean; reason?: string }>();
  for (const message of messages)
    if (message.role === "tool") {
      results.set(
        message.toolCallId,
        typeof message.content === "string" ? message.content : JSON.stringify(message.content),
      );
      if (message.approval) answers.set(message.toolCallId, message.approval);
    }
  const output: Normal[] = [];
  for (const message of clean(messages)) {
    const parts = joinTexts(
      typeof message.content === "string" ? [{ type: "text", text: message.content }] : [...message.content],
    );
    if (message.role === "system" || message.role === "user") output.push({ role: message.role, parts });
    else if (message.role === "assistant") {
      const calls = (message.toolCalls ?? []).map((call) => ({
        id: call.id,
        name: call.name,
        input: call.arguments,
        result: results.get(call.id),
        ...(call.approval ? { approval: { ...call.approval, ...answers.get(call.id) } } : {}),
        ...(call.providerExecuted ? { providerExecuted: true as const } : {}),
      }));
      output.push({ role: "assistant", parts, calls });
    }
  }
  return output;
}

/** Ours without the calls still awaiting approval before the last user message (ai 7 leaves them out). */
function withoutStaleApprovalRequests(messages: Normal[]): Normal[] {
  const lastUser = messages.findLastIndex((message) => message.role === "user");
  return messages.flatMap((message, index) => {
    if (message.role !== "assistant" || index > lastUser) return [message];
    const calls = message.calls.filter(
      (call) => !(call.approval && call.approval.approved === undefined && call.result === undefined),
    );
    return message.parts.length > 0 || calls.length > 0 ? [{ ...message, calls }] : [];
  });
}

/** The `ai` lines compared: 6 (`ai`) and 7 (`ai-v7`), each with its own `convertToModelMessages`. */
const aiLines = [
  { line: "ai 6", convert: ai6ConvertToModelMessages, normaliseOurs },
  {
    line: "ai 7",
    convert: (payload: unknown) => ai7ConvertToModelMessages(payload as never) as unknown as Promise<ModelMessage[]>,
    normaliseOurs: (messages: AgentMessage[]) => withoutStaleApprovalRequests(normaliseOurs(messages)),
  },
];

describe.each(aiLines)("convertToModelMessages side by side with $line's", ({ convert, normaliseOurs }) => {
  for (const [name, payload] of Object.entries(corpus)) {
    it(`gives the same parts: ${name}`, async () => {
      // The `ai` package's defaults, what a route calls: incomplete calls other than approvals are dropped on both sides.
      const theirs = await convert(payload);
      const ours = convertToModelMessages(payload);
      expect(normaliseOurs(ours)).toStrictEqual(normaliseTheirs(theirs));
    });
  }
});

describe("convertToModelMessages over the useChat corpus", () => {
  it("keeps the corpus meaningful: images, files and reasoning really are parts", () => {
    const images = convertToModelMessages(corpus["PDF attachment and a remote image"]);
    expect(images[0]!.content).toStrictEqual([
      { type: "text", text: "Summarise the report and compare with the chart" },
      { type: "file", data: pdf, mediaType: "application/pdf", filename: "report.pdf" },
      { type: "image", image: "https://example.com/chart.jpg", mediaType: "image/jpeg" },
    ]);
    const raw = convertToModelMessages(corpus["tool errors: parsed input and raw input"]);
    expect(raw[1]).toMatchObject({ toolCalls: [{ arguments: { q: 1 } }, { arguments: { q: "raw" } }, {}] });
  });

  it("refuses a malformed data: URL with a typed error naming the message and part", () => {
    const payload = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "ok" }] },
      {
        id: "u2",
        role: "user",
        parts: [
          { type: "text", text: "see" },
          { type: "file", mediaType: "image/png", url: "data:image/png;base64,@@@" },
        ],
      },
    ];
    const error = (() => {
      try {
        convertToModelMessages(payload);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(InvalidMessageError);
    expect((error as InvalidMessageError).issues).toStrictEqual([
      { index: 1, path: "parts.1.url", message: expect.stringContaining("malformed data: URL") },
    ]);
    expect(() =>
      convertToModelMessages([{ id: "u", role: "user", parts: [{ type: "file", mediaType: "nope", url: png }] }]),
    ).toThrow(InvalidMessageError);
  });

  it("gives image, file and reasoning parts and every approval state back through convertToUIMessages", () => {
    for (const name of [
      "image attachment",
      "PDF attachment and a remote image",
      "reasoning with a signature",
      "reasoning with providerMetadata through a tool loop, as useChat keeps it after a stream",
      "reasoning metadata of other providers: nested JSON, several providers on one part",
      "multi-step tool call",
      "denials with and without a reason",
      "approval responses on their way to the server: approved, denied with a reason, approved with one",
      "a finished approval turn, then a denial with an empty reason",
      "a call awaiting approval alone in its assistant message",
      "provider-executed search beside a client tool in one step, then the answer",
    ]) {
      const messages = convertToModelMessages(corpus[name]);
      expect(convertToModelMessages(convertToUIMessages(messages))).toStrictEqual(messages);
    }
  });
});
