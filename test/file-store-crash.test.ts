// A child process appending to a FileMemoryStore (fsync on, compacting often) is SIGKILLed at
// random moments, 200 times. After every kill the store is reopened: it must read a committed
// state (whole turns, in order, nothing acknowledged missing, nothing duplicated), and temp
// files must not pile up. Then the same with agent runs (the user message is written before the
// model call and synced with the answer): 100 kills, and every turn a run acknowledged is whole.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { bundleChild } from "./helpers/bundle";

const KILLS = 200;
const AGENT_KILLS = 100;
const directory = mkdtempSync(join(tmpdir(), "agentcore-crash-"));
const path = join(directory, "sessions.json");
const agentDirectory = mkdtempSync(join(tmpdir(), "agentcore-crash-agent-"));
const agentPath = join(agentDirectory, "sessions.json");
let child: string;
let agentChild: string;

beforeAll(async () => {
  [child, agentChild] = await Promise.all([
    bundleChild("test/helpers/file-crash-child.ts"),
    bundleChild("test/helpers/file-agent-crash-child.ts"),
  ]);
}, 60_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  rmSync(agentDirectory, { recursive: true, force: true });
  for (const bundle of [child, agentChild]) if (bundle) rmSync(dirname(bundle), { recursive: true, force: true });
});

interface Writer {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the acknowledged turn numbers once the process was killed. */
  run(afterFirstAck?: boolean): Promise<number[]>;
}

/**
 * Spawns a writer that waits for "go" on stdin. Spare writers are spawned ahead, so the slow
 * process start-up overlaps with the previous writer's run instead of adding to it.
 */
function spawnWriter(script = child, file = path, killWithinMs = 30): Writer {
  const writer = spawn(process.execPath, [script, file, "8192"], { stdio: ["pipe", "pipe", "pipe"] });
  let errors = "";
  writer.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => writer.on("exit", (_code, signal) => resolve(signal)));
  return {
    process: writer,
    async run(afterFirstAck = false) {
      let output = "";
      const acked: number[] = [];
      let killTimer: NodeJS.Timeout | undefined;
      writer.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        output += chunk;
        for (const line of output.split("\n")) {
          const [word, count] = line.split(" ");
          if (word === "acked") acked.push(Number(count));
          // The kill lands at a random moment after the writer starts, or (afterFirstAck) after its
          // first acknowledged write: on a loaded machine, a run then still gets work done.
          if (word === (afterFirstAck ? "acked" : "start") && !killTimer)
            killTimer = setTimeout(() => writer.kill("SIGKILL"), Math.random() * killWithinMs);
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
      const acked = await writer.run(kill % 2 === 1); // every other kill after a write was acknowledged
      acknowledged = Math.max(acknowledged, ...acked);
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

  it(`keeps every acknowledged agent turn whole after each of ${AGENT_KILLS} kills mid-run, each user message once, in order`, async () => {
    const acknowledged = new Set<number>();
    const spares = [spawnWriter(agentChild, agentPath, 100), spawnWriter(agentChild, agentPath, 100)];
    onTestFinished(() => {
      for (const spare of spares) spare.process.kill("SIGKILL");
    });
    for (let kill = 0; kill < AGENT_KILLS; kill++) {
      const writer = spares.shift()!;
      if (kill + spares.length + 1 < AGENT_KILLS) spares.push(spawnWriter(agentChild, agentPath, 100));
      // Every other run is killed only after a turn was acknowledged, so the runs really run.
      for (const turn of await writer.run(kill % 2 === 1)) acknowledged.add(turn);
      // The killed run held the writers' lock and its session lock: their owner is known dead.
      for (const name of readdirSync(agentDirectory))
        if (name.endsWith(".lock")) rmSync(join(agentDirectory, name), { recursive: true, force: true });
      const stored = await new FileMemoryStore(agentPath).getMessages("shared");
      // Turn n is "turn n …", then its answer unless the run was killed before it was stored.
      let turn = 0;
      let unanswered = 0;
      for (let index = 0; index < stored.length; turn++) {
        expect(stored[index]).toMatchObject({ role: "user" });
        expect((stored[index]!.content as string).startsWith(`turn ${turn} `)).toBe(true);
        index++;
        if (stored[index]?.role === "assistant") {
          expect(stored[index]!.content).toBe(`answer ${turn}`);
          index++;
        } else {
          expect(acknowledged.has(turn)).toBe(false); // an acknowledged turn lost its answer
          unanswered++;
        }
      }
      for (const acked of acknowledged) expect(acked).toBeLessThan(turn); // an acknowledged turn is missing
      expect(unanswered).toBeLessThanOrEqual(kill + 1); // a kill cuts at most the turn in flight
    }
    expect(acknowledged.size).toBeGreaterThan(AGENT_KILLS / 4); // the runs really ran between kills
  }, 240_000);
});
