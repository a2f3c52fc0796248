import { describe, expect, it, onTestFinished } from "vitest";
import { Agent } from "./agent";
import { AbortError } from "../errors/abort-error";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** How a promise settled, or "pending" if it has not yet (after the pending callbacks ran). */
async function state(promise: Promise<unknown>): Promise<"resolved" | "rejected" | "pending"> {
  let settled: "resolved" | "rejected" | "pending" = "pending";
  promise.then(
    () => (settled = "resolved"),
    () => (settled = "rejected"),
  );
  for (let tick = 0; tick < 20; tick++) await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

/** A model whose first answer waits until `finish` is called. */
function heldModel() {
  let finish!: () => void;
  const held = new Promise<void>((resolve) => (finish = resolve));
  const model = new MockLanguageModel({
    responses: async (_call, index) => {
      if (index === 0) await held;
      return { text: `answer ${index}` };
    },
  });
  return { model, finish: () => finish() };
}

describe("agent.run and an abort while waiting for the session", () => {
  it("agent.run aborted while another run holds the session settles before that run ends", async () => {
    const { model, finish } = heldModel();
    const agent = new Agent({ model, sessionId: "busy" });
    const first = agent.run("first");
    await new Promise((resolve) => setTimeout(resolve, 10));
    const controller = new AbortController();
    const second = agent.run({ input: "second", signal: controller.signal });
    controller.abort();
    expect(await state(second)).toBe("rejected");
    await expect(second).rejects.toSatisfy(AbortError.isInstance);
    expect(await state(first)).toBe("pending");
    finish();
    expect((await first).text).toBe("answer 0");
    expect((await agent.run("third")).text).toBe("answer 1");
  });

  it("agent.run aborted while a run of another process holds the store's session lock settles before it is released", async () => {
    const directory = mkdtempSync(join(tmpdir(), "agentcore-abort-"));
    onTestFinished(() => rmSync(directory, { recursive: true, force: true }));
    const path = join(directory, "sessions.json");
    const holder = new FileMemoryStore(path);
    const releaseHolder = await holder.lockSession("busy", { timeoutMs: 0 });
    const agent = new Agent({
      model: new MockLanguageModel({ responses: [{ text: "late" }] }),
      memoryStore: new FileMemoryStore(path),
      sessionId: "busy",
    });
    const controller = new AbortController();
    const run = agent.run({ input: "hello", signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 30));
    controller.abort();
    await expect(run).rejects.toSatisfy(AbortError.isInstance);
    await releaseHolder();
    // The aborted run left no lock behind and wrote nothing.
    const releaseAgain = await holder.lockSession("busy", { timeoutMs: 0 });
    await releaseAgain();
    expect(await holder.getMessages("busy")).toEqual([]);
  });
});
