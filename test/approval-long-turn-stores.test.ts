// A step awaiting approval at the end of a turn longer than the run's first tail read (issue 46.1):
// steps of parallel tool calls push the turn's user message out of the tail a windowed strategy
// reads. The pending calls must still be found, answered once, and a new message must not slip
// past them, on every built-in store and a custom one.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { ToolApprovalNotPendingError } from "../src/errors/tool-approval-not-pending-error";
import type { AgentMessage } from "../src/messages/agent-message";
import { isToolPairingValid } from "../src/messages/validate-tool-pairing";
import { sixMethodStore } from "../src/stores/__fixtures__/six-method-store";
import { InMemoryStore } from "../src/stores/in-memory-store";
import type { MemoryStore } from "../src/stores/memory-store";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import { openStoreServers, persistentStores } from "./helpers/store-servers";

const servers = await openStoreServers("agentcore-long-turn", { postgresConnections: 4 });
const stores: [string, ((key: string) => MemoryStore) | undefined][] = persistentStores(servers);
stores.push(["InMemoryStore", () => new InMemoryStore()]);
stores.push(["a custom store with the six methods", () => sixMethodStore()]);

/** `steps` steps of `width` parallel lookups, then one call to send_mail, which needs approval. */
function script(steps: number, width: number) {
  const responses: { text?: string; toolCalls?: { id: string; name: string; arguments: object }[] }[] = [];
  for (let step = 0; step < steps; step++) {
    responses.push({
      toolCalls: Array.from({ length: width }, (_, call) => ({
        id: `look_${step}_${call}`,
        name: "look_up",
        arguments: { query: `q${step}.${call}` },
      })),
    });
  }
  responses.push({ text: "Send it?", toolCalls: [{ id: "mail_1", name: "send_mail", arguments: { to: "a@b.c" } }] });
  responses.push({ text: "Sent." });
  return responses;
}

let sessions = 0;

function agentOn(store: MemoryStore, model: MockLanguageModel, sent: string[], options: object, sessionId: string) {
  return new Agent({
    model,
    memoryStore: store,
    sessionId,
    ...options,
    tools: {
      look_up: tool({ parameters: z.object({ query: z.string() }), execute: async ({ query }) => `found ${query}` }),
      send_mail: tool({
        parameters: z.object({ to: z.string() }),
        needsApproval: true,
        execute: async ({ to }) => {
          sent.push(to);
          return { sent: true };
        },
      }),
    },
  });
}

const cases = [
  {
    name: "4 steps of 6 parallel calls, sliding_window maxMessages 4",
    steps: 4,
    width: 6,
    options: { memory: "sliding_window", maxMessages: 4 },
  },
  { name: "80 parallel calls, the default sliding window", steps: 1, width: 80, options: { memory: "sliding_window" } },
  { name: "3 steps of 30 parallel calls, summary", steps: 3, width: 30, options: { memory: "summary" } },
];

for (const [name, makeStore] of stores) {
  describe.skipIf(!makeStore)(`a long turn awaiting approval on ${name}`, () => {
    for (const [index, { name: shape, steps, width, options }] of cases.entries()) {
      it(`${shape}: the approval runs the call once and the model sees the whole turn`, async () => {
        const store = makeStore!(`long-${index}`);
        const session = `long-turn-${++sessions}`;
        const sent: string[] = [];
        const model = new MockLanguageModel({ responses: script(steps, width) });
        const first = await agentOn(store, model, sent, { ...options, maxSteps: steps + 2 }, session).run(
          "Look things up, then mail",
        );
        expect(first.finishReason).toBe("tool-approval");
        // Another process (a new Agent on the same data) answers.
        const answered = await agentOn(store, model, sent, { ...options, maxSteps: steps + 2 }, session).run({
          approvals: [{ toolCallId: "mail_1", approved: true }],
        });
        expect(answered.text).toBe("Sent.");
        expect(sent).toEqual(["a@b.c"]);
        const request = model.calls.at(-1)!.messages;
        expect(isToolPairingValid(request)).toBe(true);
        expect(request.at(-1)).toMatchObject({ role: "tool", toolCallId: "mail_1" });
        await expect(
          agentOn(store, model, sent, options, session).run({ approvals: [{ toolCallId: "mail_1", approved: true }] }),
        ).rejects.toSatisfy(ToolApprovalNotPendingError.isInstance);
        expect(sent).toEqual(["a@b.c"]);
        const stored: AgentMessage[] = await store.getMessages(session);
        expect(stored.filter((message) => message.role === "tool" && message.toolCallId === "mail_1")).toHaveLength(1);
        expect(isToolPairingValid(stored)).toBe(true);
      });

      it(`${shape}: a new message while the call waits denies it (never left without a result)`, async () => {
        const store = makeStore!(`long-new-${index}`);
        const session = `long-turn-${++sessions}`;
        const sent: string[] = [];
        const model = new MockLanguageModel({ responses: script(steps, width) });
        await agentOn(store, model, sent, { ...options, maxSteps: steps + 2 }, session).run(
          "Look things up, then mail",
        );
        // The next run's model (a summary strategy also summarises with it first).
        const later = new MockLanguageModel({ responses: [{ text: "Understood." }, { text: "Understood." }] });
        const next = await agentOn(store, later, sent, options, session).run("Never mind");
        expect(next.text).toBe("Understood.");
        expect(sent).toEqual([]);
        expect(isToolPairingValid(later.calls.at(-1)!.messages)).toBe(true);
        const stored: AgentMessage[] = await store.getMessages(session);
        expect(isToolPairingValid(stored)).toBe(true);
        expect(stored.find((message) => message.role === "tool" && message.toolCallId === "mail_1")).toMatchObject({
          approval: { approved: false },
        });
      });
    }
  });
}
