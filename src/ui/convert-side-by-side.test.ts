import {
  convertToModelMessages as aiConvertToModelMessages,
  type ModelMessage,
  type UIMessage as AiUIMessage,
} from "ai";
import { describe, expect, it } from "vitest";
import { InvalidMessageError } from "../errors/invalid-message-error";
import type { AgentMessage } from "../messages/agent-message";
import { convertToModelMessages } from "./convert-to-model-messages";
import { convertToUIMessages } from "./convert-to-ui-messages";

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
 *   is kept on both sides without a result;
 * - theirs gives every file part as a file part; ours gives `image/*` as an image part (no filename);
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
      }[];
    };

const png =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const pdf = "data:application/pdf;base64,JVBERi0xLjQKJcOkw7zDtsOfCjEgMCBvYmoKPDwvVHlwZS9DYXRhbG9nPj4KZW5kb2JqCg==";

const corpus: Record<string, AiUIMessage[]> = {
  "plain text chat": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Hello" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [{ type: "step-start" }, { type: "text", text: "Hi! How can I help?", state: "done" }],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Tell me a joke" }] },
  ],
  "system prompt and text with provider metadata": [
    { id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }] },
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "Cache this", providerMetadata: { anthropic: { cacheControl: { type: "ephemeral" } } } },
      ],
    },
  ],
  "image attachment": [
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "file", mediaType: "image/png", url: png, filename: "dot.png" },
        { type: "text", text: "What is in this picture?" },
      ],
    },
  ],
  "PDF attachment and a remote image": [
    {
      id: "u1",
      role: "user",
      parts: [
        { type: "text", text: "Summarise the report and compare with the chart" },
        { type: "file", mediaType: "application/pdf", url: pdf, filename: "report.pdf" },
        { type: "file", mediaType: "image/jpeg", url: "https://example.com/chart.jpg" },
      ],
    },
  ],
  "reasoning with a signature": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "What is 17 * 23?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "17*23 = 391",
          state: "done",
          providerMetadata: { anthropic: { signature: "sig" } },
        },
        { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "xyz" } } },
        { type: "text", text: "391", state: "done" },
      ],
    },
  ],
  "reasoning with providerMetadata through a tool loop, as useChat keeps it after a stream": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Oslo?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "The user wants the weather. I will call the tool.",
          state: "done",
          providerMetadata: { anthropic: { signature: "EqQBCkgIARABGAIiQL2Zg+/sig==" } },
        },
        {
          type: "reasoning",
          text: "",
          state: "done",
          providerMetadata: { anthropic: { redactedData: "EmwKAhgBEgy3va3pzix/redacted" } },
        },
        {
          type: "tool-weather",
          toolCallId: "toolu_1",
          state: "output-available",
          input: { city: "Oslo" },
          output: "3°C",
        },
        { type: "step-start" },
        {
          type: "reasoning",
          text: "3 degrees: say it.",
          state: "done",
          providerMetadata: { anthropic: { signature: "second-block-sig" } },
        },
        { type: "text", text: "It is 3°C in Oslo.", state: "done" },
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "And tomorrow?" }] },
  ],
  "reasoning metadata of other providers: nested JSON, several providers on one part": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Think" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "reasoning",
          text: "Thought one",
          state: "done",
          providerMetadata: {
            openai: { itemId: "rs_123", reasoningEncryptedContent: null },
            google: { thoughtSignature: "Cs4BAdHtim9" },
          },
        },
        {
          type: "reasoning",
          text: "Thought two",
          providerMetadata: { custom: { steps: [1, 2.5, { ok: true, note: "é😀" }], empty: {} } },
        },
        { type: "text", text: "Done", state: "done" },
      ],
    },
  ],
  "multi-step tool call": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Oslo?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "Let me check.", state: "done" },
        {
          type: "tool-weather",
          toolCallId: "c1",
          state: "output-available",
          input: { city: "Oslo" },
          output: { t: 3 },
        },
        { type: "step-start" },
        { type: "tool-forecast", toolCallId: "c2", state: "output-available", input: { days: 2 }, output: "sunny" },
        { type: "step-start" },
        { type: "text", text: "3 degrees, then sunny.", state: "done" },
      ],
    },
  ],
  "tool errors: parsed input and raw input": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Go" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "tool-lookup", toolCallId: "e1", state: "output-error", input: { q: 1 }, errorText: "timeout" },
        {
          type: "tool-lookup",
          toolCallId: "e2",
          state: "output-error",
          input: undefined,
          rawInput: { q: "raw" },
          errorText: "Invalid input for tool lookup",
        },
        {
          type: "dynamic-tool",
          toolName: "mcp_search",
          toolCallId: "e3",
          state: "output-error",
          input: { q: "x" },
          errorText: "MCP server gone",
        },
      ],
    },
  ],
  "denials with and without a reason": [
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-delete_all",
          toolCallId: "d1",
          state: "output-denied",
          input: {},
          approval: { id: "ap1", approved: false, reason: "Never delete my files" },
        },
        {
          type: "tool-delete_all",
          toolCallId: "d2",
          state: "output-denied",
          input: {},
          approval: { id: "ap2", approved: false },
        },
      ],
    },
  ],
  "approved and executed call, plus a call still awaiting approval": [
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m1",
          state: "output-available",
          input: { to: "a@b.c" },
          output: { sent: true },
          approval: { id: "ap1", approved: true },
        },
        {
          type: "tool-send_mail",
          toolCallId: "m2",
          state: "approval-requested",
          input: { to: "x@y.z" },
          approval: { id: "ap2" },
        },
      ],
    },
  ],
  "approval responses on their way to the server: approved, denied with a reason, approved with one": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Mail the team and delete the drafts" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "text", text: "I need your go-ahead.", state: "done" },
        {
          type: "tool-send_mail",
          toolCallId: "r1",
          state: "approval-responded",
          input: { to: "team@corp.com" },
          approval: { id: "ap1", approved: true },
        },
        {
          type: "tool-delete_drafts",
          toolCallId: "r2",
          state: "approval-responded",
          input: {},
          approval: { id: "ap2", approved: false, reason: "Keep my drafts" },
        },
        {
          type: "dynamic-tool",
          toolName: "archive",
          toolCallId: "r3",
          state: "approval-responded",
          input: { folder: "old" },
          approval: { id: "ap3", approved: true, reason: "fine, it is old" },
        },
      ],
    },
  ],
  "a finished approval turn, then a denial with an empty reason": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Mail a@b.c" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m1",
          state: "output-available",
          input: { to: "a@b.c" },
          output: { sent: true },
          approval: { id: "ap1", approved: true, reason: "ok" },
        },
        { type: "step-start" },
        { type: "text", text: "Sent.", state: "done" },
      ],
    },
    { id: "u2", role: "user", parts: [{ type: "text", text: "Now mail b@c.d" }] },
    {
      id: "a2",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-send_mail",
          toolCallId: "m2",
          state: "output-denied",
          input: { to: "b@c.d" },
          approval: { id: "ap2", approved: false, reason: "" },
        },
        { type: "step-start" },
        { type: "text", text: "Not sent.", state: "done" },
      ],
    },
  ],
  "provider-executed web search": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "News today?" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        {
          type: "tool-web_search",
          toolCallId: "ws1",
          state: "output-available",
          input: { query: "news" },
          output: [{ url: "https://news.example", title: "News" }],
          providerExecuted: true,
        },
        { type: "text", text: "Here is the news.", state: "done" },
      ],
    },
  ],
  "dynamic tools, sources, data parts and an unfinished step": [
    { id: "u1", role: "user", parts: [{ type: "text", text: "Find it" }] },
    {
      id: "a1",
      role: "assistant",
      parts: [
        { type: "step-start" },
        { type: "dynamic-tool", toolName: "find", toolCallId: "f1", state: "output-available", input: {}, output: 42 },
        { type: "source-url", sourceId: "s1", url: "https://example.com" },
        { type: "step-start" },
        { type: "text", text: "Found 42, checking more.", state: "done" },
        { type: "tool-find", toolCallId: "f2", state: "input-available", input: { more: true } },
        { type: "tool-find", toolCallId: "f3", state: "input-streaming", input: undefined },
      ],
    },
  ],
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

function normaliseTheirs(messages: ModelMessage[]): Normal[] {
  const output: Normal[] = [];
  const results = new Map<string, string>();
  const approvalIds = new Map<string, string>();
  const answers = new Map<string, { approved: boolean; reason?: string }>();
  for (const message of messages) {
    if (message.role === "tool" || message.role === "assistant")
      for (const part of typeof message.content === "string" ? [] : message.content) {
        if (part.type === "tool-result") results.set(part.toolCallId, outputText(part.output));
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
            if (part.type !== "file" || !part.mediaType.startsWith("image/")) return part;
            return { type: "image", image: part.data, mediaType: part.mediaType };
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
      }));
      output.push({ role: "assistant", parts, calls });
    }
  }
  return output;
}

describe("convertToModelMessages side by side with the ai package's", () => {
  for (const [name, payload] of Object.entries(corpus)) {
    it(`gives the same parts: ${name}`, async () => {
      const theirs = await aiConvertToModelMessages(payload, { ignoreIncompleteToolCalls: true });
      const ours = convertToModelMessages(payload);
      expect(normaliseOurs(ours)).toStrictEqual(normaliseTheirs(theirs));
    });
  }

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
    ]) {
      const messages = convertToModelMessages(corpus[name]);
      expect(convertToModelMessages(convertToUIMessages(messages))).toStrictEqual(messages);
    }
  });
});
