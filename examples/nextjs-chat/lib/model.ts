/**
 * The model of both routes: a real provider when a key is set, the scripted model otherwise.
 * Imports nothing from Node, so the edge route can use it too.
 */
import {
  contentText,
  type AgentMessage,
  type LanguageModel,
  type LanguageModelCall,
  type LanguageModelResult,
  type LanguageModelStreamPart,
} from "agentcore";
import { scriptedAnswer, type ScriptInput } from "./script";

/**
 * "openai/gpt-4o-mini" with OPENAI_API_KEY, "anthropic/…" with ANTHROPIC_API_KEY (and
 * ANTHROPIC_BASE_URL, as the e2e test sets it, for an Anthropic-compatible server), else the script.
 */
export function chatModel(): string | LanguageModel {
  if (process.env.OPENAI_API_KEY) return process.env.CHAT_MODEL ?? "openai/gpt-4o-mini";
  if (process.env.ANTHROPIC_API_KEY) return process.env.CHAT_MODEL ?? "anthropic/claude-3-5-haiku";
  return new ScriptedModel();
}

/** The script of lib/script.ts as a streaming model: reasoning first, then text or tool calls. */
class ScriptedModel implements LanguageModel {
  readonly provider = "scripted";
  readonly modelId = "nextjs-chat-script";
  private calls = 0;

  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const result: LanguageModelResult = {
      text: "",
      toolCalls: [],
      reasoning: [],
      finishReason: "stop",
      usage: usage(),
    };
    for await (const part of this.doStream(call)) {
      if (part.type === "text-delta") result.text += part.delta;
      if (part.type === "reasoning") result.reasoning!.push(part.reasoning);
      if (part.type === "tool-call") result.toolCalls.push(part.toolCall);
      if (part.type === "finish") result.finishReason = part.finishReason;
    }
    return result;
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const answer = scriptedAnswer(scriptInput(call));
    yield { type: "reasoning", reasoning: { type: "reasoning", text: answer.reasoning } };
    for (const piece of answer.text?.match(/[\s\S]{1,3}/g) ?? []) {
      call.abortSignal?.throwIfAborted();
      await new Promise((resolve) => setTimeout(resolve, 5)); // a visible stream
      yield { type: "text-delta", delta: piece };
    }
    for (const toolCall of answer.toolCalls ?? [])
      yield { type: "tool-call", toolCall: { id: `call_${++this.calls}`, ...toolCall } };
    yield { type: "finish", finishReason: answer.toolCalls?.length ? "tool-calls" : "stop", usage: usage() };
  }
}

/** The last message as the script reads it. */
function scriptInput(call: LanguageModelCall): ScriptInput {
  const last: AgentMessage | undefined = call.messages.at(-1);
  const input: ScriptInput = { system: call.system ?? "", text: "", attachments: [] };
  if (last?.role === "tool") return { ...input, toolResult: { name: last.name, text: contentText(last.content) } };
  if (last?.role !== "user") return input;
  input.text = contentText(last.content);
  for (const part of typeof last.content === "string" ? [] : last.content) {
    if (part.type === "image") input.attachments.push({ kind: "image", mediaType: part.mediaType ?? "image/*" });
    if (part.type === "file")
      input.attachments.push({
        kind: part.mediaType.startsWith("image/") ? "image" : "file",
        mediaType: part.mediaType,
        ...(part.filename ? { filename: part.filename } : {}),
      });
  }
  return input;
}

function usage() {
  return { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
}
