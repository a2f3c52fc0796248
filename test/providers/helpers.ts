import { z } from "zod";
import { tool } from "../../src/tools/tool";
import type { AgentMessage } from "../../src/messages/agent-message";

/** The tool every provider test uses. */
export const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: city === "Oslo" ? "4°C" : "22°C" }),
});

export const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" } },
  required: ["city"],
};

/** Messages without their ids and timestamps (which differ run to run). */
export function withoutMeta(messages: readonly AgentMessage[]) {
  return messages.map(({ id: _id, timestamp: _timestamp, ...rest }) => rest);
}
