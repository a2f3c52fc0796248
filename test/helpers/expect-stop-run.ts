// The stop checks every store runs (issue 42, "A Stop that stops"): a run on `running` stopped by a
// stop sent through `stopping` (another store object on the same database, or the same object for
// a store that lives in one process).
import { expect } from "vitest";
import { Agent } from "../../src/agent/agent";
import { GatedModel } from "./gated-model";
import { stopRun } from "../../src/agent/stop-run";
import { contentText } from "../../src/messages/content-text";
import { MockLanguageModel } from "../../src/testing/mock-language-model";
import type { MemoryStore } from "../../src/stores/memory-store";

export interface StopPair {
  /** The store of the running turn. */
  running: MemoryStore;
  /** The store the stop is sent through (and the next run's). */
  stopping: MemoryStore;
}

const ANSWER = "The quick brown fox jumps over the lazy dog.";

/** What the store holds, as role and text. */
async function shown(store: MemoryStore, sessionId: string) {
  const messages = await store.getMessages(sessionId);
  expect(new Set(messages.map((message) => message.id)).size).toBe(messages.length);
  return messages.map((message) => [message.role, contentText(message.content)]);
}

/**
 * A stop from the other store object while the answer streams: the model's signal fires, the text
 * streamed so far is the stored answer (marked stopped) and the run's, and the session is free at
 * once (a run with `concurrency: "reject"` on the other store object starts); the next model call
 * gets the partial answer as stored.
 */
export async function expectStopKeepsPartialAnswer({ running, stopping }: StopPair, sessionId: string): Promise<void> {
  const model = new GatedModel([{ text: ANSWER }], { open: 3, chunkSize: 4 });
  const agent = new Agent({ model, memoryStore: running });
  const stream = agent.stream({ input: "Tell me a sentence.", sessionId });
  let page = "";
  const reading = (async () => {
    for await (const delta of stream.textStream) page += delta;
  })();
  await model.atGate();
  await stopRun({ sessionId, memoryStore: stopping });
  const result = await stream.response;
  await reading;
  await model.aborted();
  expect(model.signals[0]!.aborted).toBe(true);
  expect(result.finishReason).toBe("stopped");
  expect(model.sent).toBe(ANSWER.slice(0, 12));
  expect(result.text).toBe(model.sent);
  expect(page).toBe(model.sent);
  expect(await shown(stopping, sessionId)).toEqual([
    ["user", "Tell me a sentence."],
    ["assistant", model.sent],
  ]);
  const stored = await stopping.getMessages(sessionId);
  expect(stored[1]).toMatchObject({ role: "assistant", finishReason: "stopped" });

  // Released at once: a run that refuses to wait starts on the other store object.
  const nextModel = new MockLanguageModel({ responses: [{ text: "Next answer." }] });
  const next = new Agent({ model: nextModel, memoryStore: stopping, concurrency: "reject" });
  const after = await next.run({ input: "Go on.", sessionId });
  expect(after.finishReason).toBe("stop");
  expect(nextModel.calls[0]!.messages.map((message) => [message.role, contentText(message.content)])).toEqual([
    ["user", "Tell me a sentence."],
    ["assistant", model.sent],
    ["user", "Go on."],
  ]);
  expect(await shown(stopping, sessionId)).toHaveLength(4);
}

/** A stop with no running turn does nothing, and keeps nothing that would stop the next run. */
export async function expectStopWithoutRunIsNoop({ running, stopping }: StopPair, sessionId: string): Promise<void> {
  await expect(stopRun({ sessionId, memoryStore: stopping })).resolves.toBeUndefined();
  const model = new MockLanguageModel({ responses: [{ text: ANSWER }] });
  const result = await new Agent({ model, memoryStore: running }).stream({ input: "Hi", sessionId }).response;
  expect(result.finishReason).toBe("stop");
  expect(result.text).toBe(ANSWER);
  expect(await shown(stopping, sessionId)).toEqual([
    ["user", "Hi"],
    ["assistant", ANSWER],
  ]);
}

/**
 * A stop sent as the turn ends (its last step told) and another once it ended: the full answer is
 * stored once, never a second (stopped) copy, and the session is free.
 */
export async function expectStopAsTurnEndsIsHarmless(
  { running, stopping }: StopPair,
  sessionId: string,
): Promise<void> {
  const model = new MockLanguageModel({ responses: [{ text: ANSWER }] });
  const agent = new Agent({ model, memoryStore: running });
  const stops: Promise<void>[] = [];
  agent.on("step:end", () => {
    stops.push(stopRun({ sessionId, memoryStore: stopping }));
  });
  const result = await agent.stream({ input: "Hi", sessionId }).response;
  await Promise.all(stops);
  await stopRun({ sessionId, memoryStore: stopping });
  expect(result.text).toBe(ANSWER);
  const stored = await stopping.getMessages(sessionId);
  expect(stored.filter((message) => message.role === "assistant")).toHaveLength(1);
  expect(contentText(stored.at(-1)!.content)).toBe(ANSWER);
  const next = new Agent({
    model: new MockLanguageModel({ responses: [{ text: "Again." }] }),
    memoryStore: stopping,
    concurrency: "reject",
  });
  expect((await next.run({ input: "More", sessionId })).text).toBe("Again.");
  expect(await shown(stopping, sessionId)).toHaveLength(4);
}
