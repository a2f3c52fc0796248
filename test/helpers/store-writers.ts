// The multi-process append race shared by test/stores-multi-process.test.ts and the Redis
// Cluster test: WRITERS child processes (test/helpers/store-child.ts) append TURNS turns each
// to one session, then the stored history must hold every turn once, whole, in each writer's order.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect } from "vitest";
import type { MemoryStore } from "../../src/stores/memory-store";

const run = promisify(execFile);
export const WRITERS = 4;
export const TURNS = 100;

/** Runs the writers of `child` (the bundled store-child) on the store `kind` at `target`. */
export async function runWriters(child: string, kind: string, target: string): Promise<void> {
  await Promise.all(
    Array.from({ length: WRITERS }, (_, writer) =>
      run(process.execPath, [child, JSON.stringify({ mode: "writer", kind, target, writer, turns: TURNS })], {
        timeout: 60_000,
      }),
    ),
  );
}

export async function expectComplete(store: MemoryStore): Promise<void> {
  const ids = (await store.getMessages("shared")).map((message) => message.id!);
  const lost = WRITERS * TURNS * 2 - new Set(ids).size;
  const duplicated = ids.length - new Set(ids).size;
  expect({ lost, duplicated }).toEqual({ lost: 0, duplicated: 0 });
  for (let writer = 0; writer < WRITERS; writer++) {
    const own = ids.filter((id) => id.startsWith(`w${writer}-`));
    expect(own).toEqual(
      Array.from({ length: TURNS }, (_, turn) => [`w${writer}-t${turn}-u`, `w${writer}-t${turn}-a`]).flat(),
    );
  }
  for (let index = 0; index < ids.length; index += 2) expect(ids[index + 1]).toBe(ids[index]!.replace(/-u$/, "-a"));
  // A store that keeps the session's size beside the messages kept it exact under the race.
  if (store.getMessageTail)
    expect(await store.getMessageTail("shared", 2)).toEqual({
      messages: (await store.getMessages("shared")).slice(-2),
      total: ids.length,
    });
}
