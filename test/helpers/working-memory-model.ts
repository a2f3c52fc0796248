import type { AgentMessage } from "../../src/messages/agent-message";
import { MockLanguageModel } from "../../src/testing/mock-language-model";

/**
 * A model that calls `update_working_memory` once per patch of the JSON array its user message
 * holds (all in one step, so they run concurrently), then answers "done". A user message that is
 * not a JSON array is answered with "ok" and no tool call.
 */
export function patchingModel(): MockLanguageModel {
  return new MockLanguageModel({
    responses: (call) => {
      const last = call.messages[call.messages.length - 1] as AgentMessage;
      if (last.role !== "user" || typeof last.content !== "string" || !last.content.startsWith("["))
        return { text: last.role === "user" ? "ok" : "done" };
      const patches = JSON.parse(last.content) as object[];
      return { toolCalls: patches.map((patch) => ({ name: "update_working_memory", arguments: patch })) };
    },
  });
}

/** The `update_working_memory` results the model was sent in its last call, in order. */
export function toolResultsOf(model: MockLanguageModel): string[] {
  return model.calls
    .slice(-1)
    .flatMap((call) =>
      call.messages.flatMap((message) =>
        message.role === "tool" && message.name === "update_working_memory" && typeof message.content === "string"
          ? [message.content]
          : [],
      ),
    );
}
