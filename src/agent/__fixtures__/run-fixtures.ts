// What the agent's run tests share: a weather tool the scripted models call, a mail tool that needs
// approval and counts its runs, and a history with the stored messages' ids, timestamps and metadata left
// out, to compare with a literal.
import { z } from "zod";
import type { AgentMessage } from "../../messages/agent-message";
import { tool } from "../../tools/tool";

export const weather = tool({
  description: "Current weather in a city",
  parameters: z.object({ city: z.string() }),
  execute: async ({ city }) => ({ city, temperature: "22°C" }),
});

export function withoutMeta(messages: readonly AgentMessage[]) {
  return messages.map((message) => {
    const { id: _id, timestamp: _timestamp, ...rest } = message;
    if (!("metadata" in rest)) return rest;
    const { metadata: _metadata, ...withoutMetadata } = rest;
    return withoutMetadata;
  });
}

/** A send_mail tool that needs approval (or asks `needsApproval`) and records each address it ran for. */
export function mailTool(needsApproval: Parameters<typeof tool>[0]["needsApproval"] = true) {
  const sent: string[] = [];
  const sendMail = tool({
    description: "Send an e-mail",
    parameters: z.object({ to: z.string() }),
    needsApproval,
    execute: async ({ to }: { to: string }) => {
      sent.push(to);
      return { sent: true };
    },
  });
  return { sent, sendMail };
}

/** A model's call of send_mail. */
export const callMail = (id: string, to: string) => ({ id, name: "send_mail", arguments: { to } });
