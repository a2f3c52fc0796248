// Builders of provider responses in their real wire formats, from one provider-neutral answer,
// so the same script can be played by OpenAI, Anthropic and the MockLanguageModel.
import type { ScriptedResponse, ServerSentEvent } from "./fake-llm-server";

export interface ScriptedAnswer {
  text?: string;
  toolCalls?: { id: string; name: string; arguments: object }[];
  /**
   * `inputTokens`: OpenAI's `prompt_tokens` (cache reads included); Anthropic's `input_tokens`
   * (the tokens after the last cache breakpoint, cache reads and writes apart).
   */
  usage?: { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };
  /** OpenAI-compatible servers only (DeepSeek, vLLM): the message's `reasoning_content`, streamed first. */
  reasoningContent?: string;
  /** Anthropic only: thinking blocks, first in the content. */
  thinking?: ({ thinking: string; signature: string } | { redactedData: string })[];
}

const thinkingBlock = (block: NonNullable<ScriptedAnswer["thinking"]>[number]) =>
  "redactedData" in block
    ? { type: "redacted_thinking", data: block.redactedData }
    : { type: "thinking", thinking: block.thinking, signature: block.signature };

const usageOf = (answer: ScriptedAnswer) => answer.usage ?? { inputTokens: 10, outputTokens: 5 };

/** OpenAI reports cache reads in `prompt_tokens_details.cached_tokens` (when the answer has them). */
const openaiCacheDetails = (usage: NonNullable<ScriptedAnswer["usage"]>) =>
  usage.cacheReadTokens === undefined ? {} : { prompt_tokens_details: { cached_tokens: usage.cacheReadTokens } };

/** Splits text in pieces of `size` characters (at least one piece, maybe empty). */
function pieces(text: string, size: number): string[] {
  const result: string[] = [];
  for (let offset = 0; offset < text.length; offset += size) result.push(text.slice(offset, offset + size));
  return result;
}

// --- OpenAI Chat Completions ---

export function openaiCompletion(answer: ScriptedAnswer, model = "gpt-4o-mini"): ScriptedResponse {
  const usage = usageOf(answer);
  const toolCalls = answer.toolCalls ?? [];
  return {
    kind: "json",
    body: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 1_700_000_000,
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: answer.text ?? (toolCalls.length ? null : ""),
            ...(answer.reasoningContent === undefined ? {} : { reasoning_content: answer.reasoningContent }),
            refusal: null,
            ...(toolCalls.length
              ? {
                  tool_calls: toolCalls.map((call) => ({
                    id: call.id,
                    type: "function",
                    function: { name: call.name, arguments: JSON.stringify(call.arguments) },
                  })),
                }
              : {}),
          },
          logprobs: null,
          finish_reason: toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        ...openaiCacheDetails(usage),
      },
    },
  };
}

export function openaiStreamEvents(answer: ScriptedAnswer, model = "gpt-4o-mini"): ServerSentEvent[] {
  const usage = usageOf(answer);
  const base = { id: "chatcmpl-test", object: "chat.completion.chunk", created: 1_700_000_000, model };
  const chunk = (delta: object, finishReason: string | null = null) => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] },
  });
  const events: ServerSentEvent[] = [chunk({ role: "assistant", content: "" })];
  for (const piece of answer.reasoningContent === undefined ? [] : pieces(answer.reasoningContent, 6))
    events.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(answer.text ?? "", 5)) events.push(chunk({ content: piece }));
  (answer.toolCalls ?? []).forEach((call, index) => {
    const argumentsText = JSON.stringify(call.arguments);
    events.push(
      chunk({ tool_calls: [{ index, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    for (const piece of pieces(argumentsText, 7))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, answer.toolCalls?.length ? "tool_calls" : "stop"));
  events.push({
    data: {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        ...openaiCacheDetails(usage),
      },
    },
  });
  events.push({ data: "[DONE]" });
  return events;
}

export function openaiStream(
  answer: ScriptedAnswer,
  options: { delayMs?: number; hang?: boolean } = {},
): ScriptedResponse {
  const events = openaiStreamEvents(answer);
  return { kind: "sse", events: options.hang ? events.slice(0, 3) : events, ...options };
}

export function openaiError(status: number, message: string, headers: Record<string, string> = {}): ScriptedResponse {
  return {
    kind: "json",
    status,
    headers,
    body: {
      error: { message, type: status === 429 ? "rate_limit_error" : "invalid_request_error", param: null, code: null },
    },
  };
}

// --- Anthropic Messages ---

export function anthropicMessage(answer: ScriptedAnswer, model = "claude-sonnet-5-5"): ScriptedResponse {
  const usage = usageOf(answer);
  const toolCalls = answer.toolCalls ?? [];
  return {
    kind: "json",
    body: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      model,
      content: [
        ...(answer.thinking ?? []).map(thinkingBlock),
        ...(answer.text ? [{ type: "text", text: answer.text }] : []),
        ...toolCalls.map((call) => ({ type: "tool_use", id: call.id, name: call.name, input: call.arguments })),
      ],
      stop_reason: toolCalls.length ? "tool_use" : "end_turn",
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
        cache_read_input_tokens: usage.cacheReadTokens ?? 0,
      },
    },
  };
}

export function anthropicStreamEvents(answer: ScriptedAnswer, model = "claude-sonnet-5-5"): ServerSentEvent[] {
  const usage = usageOf(answer);
  const events: ServerSentEvent[] = [];
  const send = (event: string, data: object) => events.push({ event, data: { type: event, ...data } });
  send("message_start", {
    message: {
      id: "msg_test",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens,
        output_tokens: 1,
        cache_creation_input_tokens: usage.cacheWriteTokens ?? 0,
        cache_read_input_tokens: usage.cacheReadTokens ?? 0,
      },
    },
  });
  let index = 0;
  for (const block of answer.thinking ?? []) {
    if ("redactedData" in block) {
      send("content_block_start", { index, content_block: thinkingBlock(block) });
    } else {
      send("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
      for (const piece of pieces(block.thinking, 6))
        send("content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } });
      for (const piece of pieces(block.signature, 10))
        send("content_block_delta", { index, delta: { type: "signature_delta", signature: piece } });
    }
    send("content_block_stop", { index });
    index++;
  }
  if (answer.text) {
    send("content_block_start", { index, content_block: { type: "text", text: "" } });
    events.push({ event: "ping", data: { type: "ping" } });
    for (const piece of pieces(answer.text, 5))
      send("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
    send("content_block_stop", { index });
    index++;
  }
  for (const call of answer.toolCalls ?? []) {
    send("content_block_start", {
      index,
      content_block: { type: "tool_use", id: call.id, name: call.name, input: {} },
    });
    send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: "" } });
    for (const piece of pieces(JSON.stringify(call.arguments), 7)) {
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
    }
    send("content_block_stop", { index });
    index++;
  }
  send("message_delta", {
    delta: { stop_reason: answer.toolCalls?.length ? "tool_use" : "end_turn", stop_sequence: null },
    usage: { output_tokens: usage.outputTokens },
  });
  send("message_stop", {});
  return events;
}

export function anthropicStream(
  answer: ScriptedAnswer,
  options: { delayMs?: number; hang?: boolean } = {},
): ScriptedResponse {
  const events = anthropicStreamEvents(answer);
  return { kind: "sse", events: options.hang ? events.slice(0, 4) : events, ...options };
}

export function anthropicError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): ScriptedResponse {
  const type = status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error";
  return { kind: "json", status, headers, body: { type: "error", error: { type, message } } };
}

// --- OpenAI Responses API (what `openai("...")` of @ai-sdk/openai 3 calls) ---

function responsesUsage(answer: ScriptedAnswer) {
  const usage = usageOf(answer);
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}

/** The output items of a finished response: one `message` (when there is text), then one `function_call` per call. */
function responsesOutput(answer: ScriptedAnswer) {
  return [
    ...(answer.text
      ? [
          {
            type: "message",
            id: "msg_test",
            status: "completed",
            role: "assistant",
            content: [{ type: "output_text", text: answer.text, annotations: [], logprobs: [] }],
          },
        ]
      : []),
    ...(answer.toolCalls ?? []).map((call, index) => ({
      type: "function_call",
      id: `fc_test_${index}`,
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
      status: "completed",
    })),
  ];
}

function responsesBody(answer: ScriptedAnswer, model: string, status: "in_progress" | "completed") {
  return {
    id: "resp_test",
    object: "response",
    created_at: 1_700_000_000,
    status,
    error: null,
    incomplete_details: null,
    model,
    output: status === "completed" ? responsesOutput(answer) : [],
    parallel_tool_calls: true,
    tool_choice: "auto",
    usage: status === "completed" ? responsesUsage(answer) : null,
  };
}

export function openaiResponse(answer: ScriptedAnswer, model = "gpt-4o-mini"): ScriptedResponse {
  return { kind: "json", body: responsesBody(answer, model, "completed") };
}

/** The Responses API's server-sent events: each named by its type, numbered, no `[DONE]` at the end. */
export function openaiResponsesStreamEvents(answer: ScriptedAnswer, model = "gpt-4o-mini"): ServerSentEvent[] {
  const events: ServerSentEvent[] = [];
  const send = (type: string, data: object) =>
    events.push({ event: type, data: { type, sequence_number: events.length, ...data } });
  send("response.created", { response: responsesBody(answer, model, "in_progress") });
  send("response.in_progress", { response: responsesBody(answer, model, "in_progress") });
  const output = responsesOutput(answer);
  output.forEach((item, outputIndex) => {
    if (item.type === "message") {
      const text = answer.text ?? "";
      send("response.output_item.added", {
        output_index: outputIndex,
        item: { ...item, status: "in_progress", content: [] },
      });
      send("response.content_part.added", {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      });
      for (const piece of pieces(text, 5))
        send("response.output_text.delta", {
          item_id: item.id,
          output_index: outputIndex,
          content_index: 0,
          delta: piece,
          logprobs: [],
        });
      send("response.output_text.done", {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        text,
        logprobs: [],
      });
      send("response.content_part.done", {
        item_id: item.id,
        output_index: outputIndex,
        content_index: 0,
        part: { type: "output_text", text, annotations: [] },
      });
    } else {
      const call = item as { id: string; arguments: string };
      send("response.output_item.added", {
        output_index: outputIndex,
        item: { ...item, arguments: "", status: "in_progress" },
      });
      for (const piece of pieces(call.arguments, 7))
        send("response.function_call_arguments.delta", { item_id: call.id, output_index: outputIndex, delta: piece });
      send("response.function_call_arguments.done", {
        item_id: call.id,
        output_index: outputIndex,
        arguments: call.arguments,
      });
    }
    send("response.output_item.done", { output_index: outputIndex, item });
  });
  send("response.completed", { response: responsesBody(answer, model, "completed") });
  return events;
}

export function openaiResponsesStream(
  answer: ScriptedAnswer,
  options: { delayMs?: number; hang?: boolean } = {},
): ScriptedResponse {
  const events = openaiResponsesStreamEvents(answer);
  return { kind: "sse", events: options.hang ? events.slice(0, 6) : events, ...options };
}
