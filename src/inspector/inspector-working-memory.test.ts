import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Agent } from "../agent/agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { createInspectorHandler } from "./create-inspector-handler";
import { newInspectorToken } from "./inspector-auth";

describe("the inspector's session endpoint", () => {
  it("gives the profile and its recent changes per scope, and keeps them out of the facts", async () => {
    const token = newInspectorToken();
    const store = new InMemoryStore();
    const model = new MockLanguageModel({
      responses: [
        { toolCalls: [{ name: "update_working_memory", arguments: { set: { name: "Ada" } } }] },
        { text: "Hello Ada" },
      ],
    });
    const agent = new Agent({
      model,
      memoryStore: store,
      recordContext: true,
      enableMemoryTools: true,
      workingMemory: { schema: z.object({ name: z.string().max(40).optional() }), scope: "user" },
    });
    await agent.run({ input: "I'm Ada", sessionId: "s", userId: "ada" });
    const handler = createInspectorHandler({ store, token });
    const response = await handler(
      new Request("http://127.0.0.1:4000/api/session?id=s", { headers: { "x-inspector-token": token } }),
    );
    const body = await response.json();
    expect(body.workingMemory).toEqual([
      {
        scope: "user:ada",
        fields: [{ path: "name", value: "Ada", updatedAt: expect.any(Number), messageId: expect.any(String) }],
        changes: [expect.objectContaining({ action: "set", path: "name", value: "Ada", sessionId: "s" })],
      },
    ]);
    expect(body.facts).toEqual([
      { scope: "session:s", facts: [] },
      { scope: "user:ada", facts: [] },
    ]);
  });
});
