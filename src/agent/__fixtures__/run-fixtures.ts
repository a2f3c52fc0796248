// What the agent's run tests share: a weather tool the scripted models call, and a history with
// the stored messages' ids and timestamps left out, to compare with a literal.
import { z } from "zod";
import type { AgentMessage } from "../../messages/agent-message";
import { tool } from "../../tools/tool";

export const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: "22°C" }),
});

export function withoutMeta(messages: AgentMessage[]) {
  return messages.map(({ id: _id, timestamp: _timestamp, ...rest }) => rest);
}
