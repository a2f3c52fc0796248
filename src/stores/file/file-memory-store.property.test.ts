import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import type { AgentMessage } from "../../messages/agent-message";
import { InMemoryStore } from "../in-memory-store";
import type { Fact, MemoryStore } from "../memory-store";
import { FileMemoryStore } from "./file-memory-store";

const root = mkdtempSync(join(tmpdir(), "agentcore-file-property-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const sessions = ["a", "b", "a/b", "../a"];
const message = fc.record({
  id: fc.constantFrom("1", "2", "3", "4", "5", "6"),
  role: fc.constantFrom("user" as const, "assistant" as const),
  content: fc.string({ maxLength: 40 }),
});
const operation = fc.oneof(
  fc.record({
    op: fc.constant("append" as const),
    session: fc.constantFrom(...sessions),
    messages: fc.array(message, { maxLength: 4 }),
  }),
  fc.record({
    op: fc.constant("set" as const),
    session: fc.constantFrom(...sessions),
    messages: fc.array(message, { maxLength: 4 }),
  }),
  fc.record({ op: fc.constant("clear" as const), session: fc.constantFrom(...sessions) }),
  fc.record({
    op: fc.constant("fact" as const),
    session: fc.constantFrom(...sessions),
    key: fc.constantFrom("x", "y"),
    value: fc.string({ maxLength: 10 }),
  }),
  fc.record({
    op: fc.constant("unfact" as const),
    session: fc.constantFrom(...sessions),
    key: fc.constantFrom("x", "y"),
  }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

async function apply(store: MemoryStore, step: Operation): Promise<void> {
  switch (step.op) {
    case "append":
      return store.appendMessages!(step.session, step.messages as AgentMessage[]);
    case "set":
      return store.setMessages(step.session, step.messages as AgentMessage[]);
    case "clear":
      return store.clearMessages(step.session);
    case "fact":
      return store.setFact(step.session, { key: step.key, value: step.value, createdAt: 1, updatedAt: 1 });
    case "unfact":
      await store.deleteFact(step.session, step.key);
  }
}

async function snapshot(store: MemoryStore) {
  const result: Record<string, unknown> = {};
  for (const id of sessions) {
    result[id] = {
      messages: await store.getMessages(id),
      facts: ((await store.getFacts(id)) as Fact[]).sort((x, y) => x.key.localeCompare(y.key)),
      exists: (await store.getSession!(id)) !== undefined,
    };
  }
  return result;
}

let counter = 0;

describe("FileMemoryStore journal and compaction (property)", () => {
  it("matches the in-memory model for any sequence of writes, live and after reopening, whatever the compaction threshold", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(operation, { maxLength: 25 }),
        fc.constantFrom(1, 200, 1_000_000),
        async (steps, compactAfterBytes) => {
          const path = join(root, `case-${counter++}`, "store.json");
          const model = new InMemoryStore();
          const file = new FileMemoryStore({ path, compactAfterBytes, fsync: false });
          const other = new FileMemoryStore({ path, compactAfterBytes, fsync: false }); // a second "process"
          for (const [index, step] of steps.entries()) {
            await apply(model, step);
            await apply(index % 3 === 0 ? other : file, step);
          }
          const expected = await snapshot(model);
          expect(await snapshot(file)).toEqual(expected);
          expect(await snapshot(other)).toEqual(expected);
          expect(await snapshot(new FileMemoryStore(path))).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});

const messageWrite = fc.oneof(
  fc.record({
    op: fc.constant("append" as const),
    session: fc.constantFrom(...sessions),
    messages: fc.array(message, { maxLength: 4 }),
  }),
  fc.record({
    op: fc.constant("set" as const),
    session: fc.constantFrom(...sessions),
    messages: fc.array(message, { maxLength: 6 }),
  }),
  fc.record({ op: fc.constant("clear" as const), session: fc.constantFrom(...sessions) }),
);
const limit = fc.oneof(fc.nat({ max: 12 }), fc.constantFrom(0, 1.5, 1e21, Infinity));

async function tails(store: MemoryStore, limits: number[]) {
  const result: unknown[] = [];
  for (const id of sessions) for (const count of limits) result.push(await store.getMessageTail!(id, count));
  return result;
}

describe("FileMemoryStore getMessageTail (property)", () => {
  it("gives the same tail and total as InMemoryStore after any append/set/clear sequence, live, in a second instance and reopened", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(messageWrite, limit), { maxLength: 25 }),
        fc.array(limit, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(1, 200, 1_000_000),
        async (steps, limits, compactAfterBytes) => {
          const path = join(root, `tail-${counter++}`, "store.json");
          const model = new InMemoryStore();
          const file = new FileMemoryStore({ path, compactAfterBytes, fsync: false });
          const other = new FileMemoryStore({ path, compactAfterBytes, fsync: false });
          for (const [index, [step, count]] of steps.entries()) {
            await apply(model, step);
            await apply(index % 3 === 0 ? other : file, step);
            // Read between writes too, from the instance that did not write: it must catch up.
            const reader = index % 3 === 0 ? file : other;
            expect(await reader.getMessageTail(step.session, count)).toEqual(
              await model.getMessageTail(step.session, count),
            );
          }
          const expected = await tails(model, limits);
          expect(await tails(file, limits)).toEqual(expected);
          expect(await tails(other, limits)).toEqual(expected);
          expect(await tails(new FileMemoryStore(path), limits)).toEqual(expected);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
