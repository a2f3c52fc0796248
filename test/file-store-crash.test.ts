// A child process appending to a FileMemoryStore (fsync on, compacting often) is SIGKILLed at
// random moments, 200 times. After every kill the store is reopened: it must read a committed
// state (whole turns, in order, nothing acknowledged missing, nothing duplicated), and temp
// files must not pile up.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { bundleChild } from "./helpers/bundle";

const KILLS = 200;
const directory = mkdtempSync(join(tmpdir(), "agentcore-crash-"));
const path = join(directory, "sessions.json");
let child: string;

beforeAll(async () => {
  child = await bundleChild("test/helpers/file-crash-child.ts");
}, 60_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

interface Writer {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the highest acknowledged turn count once the process was killed. */
  run(): Promise<number>;
}

/**
 * Spawns a writer that waits for "go" on stdin. Spare writers are spawned ahead, so the slow
 * process start-up overlaps with the previous writer's run instead of adding to it.
 */
function spawnWriter(): Writer {
  const writer = spawn(process.execPath, [child, path, "8192"], { stdio: ["pipe", "pipe", "pipe"] });
  let errors = "";
  writer.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => writer.on("exit", (_code, signal) => resolve(signal)));
  return {
    process: writer,
    async run() {
      let output = "";
      let acked = 0;
      let killTimer: NodeJS.Timeout | undefined;
      writer.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        for (const line of output.split("\n")) {
          const [word, count] = line.split(" ");
          if (word === "acked") acked = Math.max(acked, Number(count));
          if (word === "start" && !killTimer) killTimer = setTimeout(() => writer.kill("SIGKILL"), Math.random() * 30);
        }
        output = output.slice(output.lastIndexOf("\n") + 1);
      });
      writer.stdin.write("go\n");
      const signal = await exited;
      clearTimeout(killTimer);
      if (signal !== "SIGKILL") throw new Error(`writer exited on its own: ${errors}`);
      return acked;
    },
  };
}

describe("FileMemoryStore under SIGKILL", () => {
  it(`reopens to a committed state after each of ${KILLS} kills, and leaves no temp files behind`, async () => {
    let acknowledged = 0;
    let maxTemps = 0;
    const spares = [spawnWriter(), spawnWriter()];
    onTestFinished(() => {
      for (const spare of spares) spare.process.kill("SIGKILL"); // only left over when the test failed
    });
    for (let kill = 0; kill < KILLS; kill++) {
      const writer = spares.shift()!;
      if (kill + spares.length + 1 < KILLS) spares.push(spawnWriter());
      const acked = await writer.run();
      acknowledged = Math.max(acknowledged, acked);
      // The killed process cannot release its lock: remove it as its (known dead) owner would be
      // broken after staleLockMs anyway; stale-lock recovery itself is tested in the unit tests.
      rmSync(`${path}.lock`, { recursive: true, force: true });
      const ids = (await new FileMemoryStore(path).getMessages("shared")).map((message) => message.id);
      expect(ids.length % 2).toBe(0);
      expect(ids.length / 2).toBeGreaterThanOrEqual(acknowledged);
      expect(ids).toEqual(Array.from({ length: ids.length / 2 }, (_, turn) => [`c${turn}-u`, `c${turn}-a`]).flat());
      maxTemps = Math.max(maxTemps, readdirSync(directory).filter((name) => name.includes(".tmp-")).length);
    }
    expect(acknowledged).toBeGreaterThan(KILLS / 4); // the writers really wrote between kills
    expect(maxTemps).toBeLessThanOrEqual(1); // a kill mid-compaction leaves one, cleaned by the next writer
    const store = new FileMemoryStore(path);
    const before = (await store.getMessages("shared")).length;
    await store.appendMessages("shared", [{ id: "final", role: "user", content: "after the storm" }]);
    expect(await new FileMemoryStore(path).getMessages("shared")).toHaveLength(before + 1);
    expect(readdirSync(directory).filter((name) => name.includes(".tmp-") || name.includes(".corrupt-"))).toEqual([]);
    expect(existsSync(path)).toBe(true); // compactions happened
  }, 240_000);
});
