// Eight processes race for a FileMemoryStore lock whose file a crashed holder left stale, trial
// after trial. Each holder logs "enter <pid>" and "leave <pid>" around the time it holds the
// lock; the log must never show two holders at once. Breaking a stale lock used to be stat →
// unlink → create, and a second breaker unlinked the lock the first had just made: two or three
// processes held the lock together in about one trial in four.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { bundleChild } from "./helpers/bundle";

const PROCESSES = 8;
const TRIALS = 40;
const directory = mkdtempSync(join(tmpdir(), "agentcore-lock-race-"));
let child: string;

beforeAll(async () => {
  child = await bundleChild("test/helpers/file-lock-race-child.ts");
}, 60_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

interface Racer {
  process: ChildProcessWithoutNullStreams;
  /** Resolves with the next line the child prints. */
  next(): Promise<string>;
}

function spawnRacer(path: string, mode: "session" | "writers", log: string): Racer {
  const racer = spawn(process.execPath, [child, path, mode, log], { stdio: ["pipe", "pipe", "pipe"] });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let buffered = "";
  let errors = "";
  racer.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  racer.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  racer.on("exit", (code) => {
    for (const waiter of waiting.splice(0)) waiter(`exited ${code}: ${errors}`);
  });
  return {
    process: racer,
    next: () => (lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise((resolve) => waiting.push(resolve))),
  };
}

/** The most holders the log shows at once, checking each leave matches a holder. */
function mostHoldersAtOnce(log: string): { most: number; enters: number } {
  const holders = new Set<string>();
  let most = 0;
  let enters = 0;
  for (const line of log.split("\n").filter(Boolean)) {
    const [word, pid] = line.split(" ") as [string, string];
    if (word === "enter") {
      holders.add(pid);
      enters++;
      most = Math.max(most, holders.size);
    } else {
      expect(holders.delete(pid)).toBe(true);
    }
  }
  return { most, enters };
}

/** A lock file as a holder that crashed a minute ago leaves it. */
function leaveStale(lock: string): void {
  writeFileSync(lock, `crashed-${Math.random()}`);
  const minuteAgo = new Date(Date.now() - 60_000);
  utimesSync(lock, minuteAgo, minuteAgo);
}

async function race(mode: "session" | "writers"): Promise<{ overlapping: number; enters: number }> {
  const path = join(directory, mode, "sessions.json");
  const log = join(directory, `${mode}.log`);
  await new FileMemoryStore(path).appendMessages("raced", [{ id: "m0", role: "user", content: "before the race" }]);
  const sessionLock = `${path}.session-${createHash("sha256").update("raced").digest("hex").slice(0, 32)}.lock`;
  const racers = Array.from({ length: PROCESSES }, () => spawnRacer(path, mode, log));
  try {
    for (const racer of racers) expect(await racer.next()).toBe("ready");
    let overlapping = 0;
    let enters = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      writeFileSync(log, "");
      if (mode === "session") leaveStale(sessionLock);
      // The writers' lock is stale in every writers trial, and in every other session trial too.
      if (mode === "writers" || trial % 2 === 1) leaveStale(`${path}.lock`);
      const at = Date.now() + 30; // every racer spins until then: they start together
      for (const racer of racers) racer.process.stdin.write(`go ${trial} ${at}\n`);
      for (const racer of racers) expect(await racer.next()).toBe(`done ${trial}`);
      const result = mostHoldersAtOnce(readFileSync(log, "utf8"));
      if (result.most > 1) overlapping++;
      enters += result.enters;
    }
    return { overlapping, enters };
  } finally {
    for (const racer of racers) racer.process.kill("SIGKILL");
  }
}

describe(`${PROCESSES} processes racing for a stale FileMemoryStore lock, ${TRIALS} trials`, () => {
  it("the session lock: one holder at a time, every process gets it once per trial, no claim or lock file left", async () => {
    expect(await race("session")).toEqual({ overlapping: 0, enters: PROCESSES * TRIALS });
    expect(readdirSync(join(directory, "session")).filter((name) => /\.lock|\.break-/.test(name))).toEqual([]);
  }, 120_000);

  it("the writers' lock: one holder at a time, every process gets it once per trial, no claim or lock file left", async () => {
    expect(await race("writers")).toEqual({ overlapping: 0, enters: PROCESSES * TRIALS });
    expect(readdirSync(join(directory, "writers")).filter((name) => /\.lock|\.break-/.test(name))).toEqual([]);
  }, 120_000);
});
