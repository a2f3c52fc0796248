// MCP sampling: a server's `sampling/createMessage` answered by an agentcore LanguageModel.
import type { CreateMessageRequest, CreateMessageResult, SamplingMessage } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AgentMessage } from "../../messages/agent-message";
import type { FinishReason, LanguageModel } from "../../models/language-model";

/** Asks the model what the server asked for, and answers in the shape MCP wants. */
export async function answerSampling(
  params: CreateMessageRequest["params"],
  model: LanguageModel,
  abortSignal: AbortSignal,
): Promise<CreateMessageResult> {
  if (params.tools?.length)
    throw new McpError(ErrorCode.InvalidParams, "This client does not take tools in sampling requests.");
  const result = await model.doGenerate({
    ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    messages: params.messages.map(toAgentMessage),
    tools: [],
    abortSignal,
    maxOutputTokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
  });
  return {
    role: "assistant",
    content: { type: "text", text: result.text },
    model: `${model.provider}/${result.response?.modelId ?? model.modelId}`,
    stopReason: stopReason(result.finishReason),
  };
}

/** A sampling message as an AgentMessage: text blocks joined; other blocks refused (agentcore's messages are text). */
function toAgentMessage(message: SamplingMessage, index: number): AgentMessage {
  const blocks = Array.isArray(message.content) ? message.content : [message.content];
  const texts = blocks.map((block) => {
    if (block.type === "text") return block.text;
    throw new McpError(
      ErrorCode.InvalidParams,
      `Sampling message ${index} holds a "${block.type}" block; this client samples text only.`,
    );
  });
  return { role: message.role, content: texts.join("\n\n") };
}

function stopReason(finishReason: FinishReason): string {
  if (finishReason === "stop") return "endTurn";
  if (finishReason === "length") return "maxTokens";
  return finishReason;
}
