// Tool approval on every built-in store (docs/approvals.md): the pending call lives in the store,
// so a new Agent (a restart, another server) continues it; two answers at once, or a replay, run
// the tool once; a denial is terminal and its reason reaches the model.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { ToolApprovalNotPendingError } from "../src/errors/tool-approval-not-pending-error";
import { isToolPairingValid } from "../src/messages/validate-tool-pairing";
import { sixMethodStore } from "../src/stores/__fixtures__/six-method-store";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { openStoreServers, persistentStores } from "./helpers/store-servers";

const servers = await openStoreServers("agentcore-approvals", { postgresConnections: 8 });

let counter = 0;
/** Each factory gives a new store object on the same data: a new one stands for another process or a restart. */
const stores: [string, ((key: string) => MemoryStore) | undefined][] = persistentStores(servers);
const shared = new InMemoryStore();
stores.push(["InMemoryStore (one object, as in one process)", () => shared]);
const custom = sixMethodStore();
stores.push(["a custom store with the six methods (one object, as in one process)", () => custom]);

function mailAgent(
  store: MemoryStore,
  sessionId: string,
  sent: string[],
  responses: { text?: string; toolCalls?: never[] }[] | MockLanguageModel,
) {
  const model = responses instanceof MockLanguageModel ? responses : new MockLanguageModel({ responses });
  const agent = new Agent({
    model,
    memoryStore: store,
    sessionId,
    tools: {
      send_mail: tool({
        parameters: z.object({ to: z.string() }),
        needsApproval: true,
        execute: async ({ to }: { to: string }) => {
          // Slow enough that a second answer arrives while the first is running.
          await new Promise((resolve) => setTimeout(resolve, 30));
          sent.push(to);
          return { sent: true };
        },
      }),
    },
  });
  return { agent, model };
}

const asking = () =>
  new MockLanguageModel({
    responses: [{ text: "Confirm?", toolCalls: [{ id: "call_1", name: "send_mail", arguments: { to: "a@b.c" } }] }],
  });

for (const [name, makeStore] of stores) {
  describe.skipIf(!makeStore)(`tool approval on ${name}`, () => {
    it("keeps the pending call across a restart; two answers at once run the tool once; a replay is refused", async () => {
      const key = `restart-${counter++}`;
      const session = `approvals-${key}`;
      const sent: string[] = [];
      const first = mailAgent(makeStore!(key), session, sent, asking());
      const asked = await first.agent.run("Mail a@b.c");
      expect(asked.finishReason).toBe("tool-approval");

      // Two servers (new Agents, new store objects) get the same approval at once.
      const answers = [0, 1].map(() => mailAgent(makeStore!(key), session, sent, [{ text: "Sent." }]));
      const outcomes = await Promise.allSettled(
        answers.map(({ agent }) =>
          agent.run({
            approvals: [{ toolCallId: "call_1", approved: true, approvalId: asked.toolApprovals[0]!.approvalId }],
          }),
        ),
      );
      expect(sent).toEqual(["a@b.c"]);
      const fulfilled = outcomes.filter((outcome) => outcome.status === "fulfilled");
      const rejected = outcomes.filter((outcome) => outcome.status === "rejected");
      expect(fulfilled).toHaveLength(1);
      expect(rejected).toHaveLength(1);
      expect(ToolApprovalNotPendingError.isInstance((rejected[0] as PromiseRejectedResult).reason)).toBe(true);
      expect((fulfilled[0] as PromiseFulfilledResult<{ text: string }>).value.text).toBe("Sent.");

      // A replay later, on yet another instance, runs nothing.
      const replay = mailAgent(makeStore!(key), session, sent, [{ text: "never" }]);
      await expect(replay.agent.run({ approvals: [{ toolCallId: "call_1", approved: true }] })).rejects.toSatisfy(
        ToolApprovalNotPendingError.isInstance,
      );
      expect(sent).toEqual(["a@b.c"]);
      expect(replay.model.calls).toHaveLength(0);

      const history = await makeStore!(key).getMessages(session);
      expect(history.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
      expect(history[1]).toMatchObject({
        toolCalls: [{ id: "call_1", approval: { id: asked.toolApprovals[0]!.approvalId } }],
      });
      expect(history[2]).toMatchObject({ toolCallId: "call_1", approval: { approved: true } });
      expect(isToolPairingValid(history)).toBe(true);
    });

    it("a denial after a restart reaches the model with the user's reason and stays denied", async () => {
      const key = `deny-${counter++}`;
      const session = `approvals-${key}`;
      const sent: string[] = [];
      await mailAgent(makeStore!(key), session, sent, asking()).agent.run("Mail a@b.c");
      const later = mailAgent(makeStore!(key), session, sent, [{ text: "Not sent, as you asked." }]);
      const result = await later.agent.run({
        approvals: [{ toolCallId: "call_1", approved: false, reason: "That address is wrong" }],
      });
      expect(result.text).toBe("Not sent, as you asked.");
      expect(later.model.calls[0]!.messages.at(-1)).toMatchObject({
        role: "tool",
        toolCallId: "call_1",
        content: "Error: That address is wrong",
      });
      const again = mailAgent(makeStore!(key), session, sent, [{ text: "never" }]);
      await expect(again.agent.run({ approvals: [{ toolCallId: "call_1", approved: true }] })).rejects.toSatisfy(
        ToolApprovalNotPendingError.isInstance,
      );
      expect(sent).toEqual([]);
      const stored = await makeStore!(key).getMessages(session);
      expect(stored[2]).toMatchObject({ approval: { approved: false, reason: "That address is wrong" } });
    });
  });
}
