import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionBusyError } from "../errors/session-busy-error";
import { isToolPairingValid } from "../messages/validate-tool-pairing";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent } from "./agent";

const directory = mkdtempSync(join(tmpdir(), "agentcore-agent-lock-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const slowModel = (label: string) =>
  new MockLanguageModel({
    responses: async (_call, index) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { text: `${label} answer ${index}` };
    },
  });

describe("two runs on one session in different processes", () => {
  it("queues runs across processes through the store's session lock: every turn stays whole", async () => {
    const path = join(directory, "queued.json");
    // Two agents with their own store instances stand for two processes sharing the file.
    const agents = ["A", "B"].map(
      (label) => new Agent({ model: slowModel(label), memoryStore: new FileMemoryStore(path), sessionId: "shared" }),
    );
    await Promise.all(
      agents.map(async (agent, index) => {
        for (let turn = 0; turn < 4; turn++) await agent.run(`${index === 0 ? "A" : "B"} question ${turn}`);
      }),
    );
    const history = await new FileMemoryStore(path).getMessages("shared");
    expect(history).toHaveLength(16);
    for (let index = 0; index < history.length; index += 2) {
      expect(history[index]!.role).toBe("user");
      expect(history[index + 1]!.role).toBe("assistant");
      expect(history[index + 1]!.content.slice(0, 1)).toBe(history[index]!.content.slice(0, 1)); // same agent's turn
    }
    expect(isToolPairingValid(history)).toBe(true);
  });

  it('rejects a second run elsewhere with concurrency: "reject", leaving the first turn whole', async () => {
    const path = join(directory, "rejected.json");
    const first = new Agent({ model: slowModel("A"), memoryStore: new FileMemoryStore(path), sessionId: "shared" });
    const second = new Agent({
      model: slowModel("B"),
      memoryStore: new FileMemoryStore(path),
      sessionId: "shared",
      concurrency: "reject",
    });
    const running = first.run("first");
    await new Promise((resolve) => setTimeout(resolve, 5));
    await expect(second.run("second")).rejects.toSatisfy(SessionBusyError.isInstance);
    await running;
    expect((await new FileMemoryStore(path).getMessages("shared")).map((message) => message.role)).toEqual([
      "user",
      "assistant",
    ]);
    await second.run("now free");
  });

  it("records the agent's name on the session where the store keeps metadata", async () => {
    const store = new InMemoryStore();
    const agent = new Agent({ name: "assistant", model: slowModel("A"), memoryStore: store, sessionId: "s" });
    await agent.run("hi");
    await agent.run("again");
    expect(await store.getSession("s")).toMatchObject({ agentName: "assistant", messageCount: 4 });
  });
});
