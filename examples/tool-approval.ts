/**
 * Tool approval (human in the loop): a tool declared with `needsApproval` stops the run until the
 * user answers; the pending call lives in the store, so another request (another server, after a
 * restart) continues it. Runs offline (a scripted model); `npx tsx examples/tool-approval.ts`.
 */
import { Agent, InMemoryStore, tool, ToolApprovalNotPendingError, type LanguageModel } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { z } from "zod";

const sent: string[] = [];
const tools = {
  send_mail: tool({
    description: "Send an e-mail",
    parameters: z.object({ to: z.string(), text: z.string() }),
    // Mail to your own domain goes out at once; anything else waits for the user.
    needsApproval: ({ to }) => !to.endsWith("@example.com"),
    execute: async ({ to }) => {
      sent.push(to);
      return { sent: true };
    },
  }),
};

// A scripted model: it asks to send a mail, then says what the tool told it.
const model: LanguageModel = new MockLanguageModel({
  responses: (call) => {
    const last = call.messages.at(-1)!;
    if (last.role === "tool") return { text: `The tool said: ${last.content}` };
    const to = String(last.content).includes("company") ? "all@corp.com" : "boss@corp.com";
    return { toolCalls: [{ id: `call_${to}`, name: "send_mail", arguments: { to, text: "Running late" } }] };
  },
});

const store = new InMemoryStore(); // any store: Redis, PostgreSQL, a file...
const agent = new Agent({ model, memoryStore: store, sessionId: "user-42", tools });

const asked = await agent.run("Tell my boss I am running late");
console.log(asked.finishReason, asked.toolApprovals.map((request) => request.input.to).join()); // tool-approval boss@corp.com

// Later, in another request (another Agent on the same store stands for another server):
const server2 = new Agent({ model, memoryStore: store, sessionId: "user-42", tools });
const [request] = asked.toolApprovals;
const approved = await server2.run({ approvals: [{ toolCallId: request!.toolCallId, approved: true }] });
console.log(approved.text, sent.join()); // The tool said: {"sent":true} boss@corp.com

// The same answer again (a replay, a second tab) runs nothing: the call is no longer pending.
await server2.run({ approvals: [{ toolCallId: request!.toolCallId, approved: true }] }).catch((error: unknown) => {
  console.log(ToolApprovalNotPendingError.isInstance(error)); // true
});

// A denial: the model is told the user's reason, and the tool never runs.
const again = await agent.run("Now tell the whole company");
const denied = await agent.run({
  approvals: [{ toolCallId: again.toolApprovals[0]!.toolCallId, approved: false, reason: "Not the whole company" }],
});
console.log(denied.text, sent.join()); // The tool said: Error: Not the whole company boss@corp.com
