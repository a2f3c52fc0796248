// A process racing for a FileMemoryStore lock (test/file-store-lock-race.test.ts). Arguments: the
// store path, the mode ("session": the session lock of session "raced"; "writers": the writers'
// lock), the shared log. For each "go <trial> <at>" line on stdin it waits (spinning, so every
// racer starts within microseconds of the others) until the clock reads <at>, takes the lock, appends
// "enter <pid>" to the log, holds the lock a few milliseconds, appends "leave <pid>", releases it
// and prints "done <trial>" (or "error <trial> <message>").
import fs, { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { FileLock } from "../../src/stores/file/file-lock";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";

// A slow file system: removing a lock file waits up to a millisecond first, which widens the gap
// between looking at a stale lock and removing it, where a second breaker can come in.
const unlinkSync = fs.unlinkSync;
fs.unlinkSync = (target: fs.PathLike) => {
  if (String(target).endsWith(".lock"))
    for (const until = performance.now() + Math.random(); performance.now() < until; );
  unlinkSync(target);
};

const [path, mode, log] = process.argv.slice(2) as [string, "session" | "writers", string];
const store = new FileMemoryStore({ path, staleLockMs: 2000, lockTimeoutMs: 20_000 });
const writers = new FileLock({ path, staleLockMs: 2000, lockTimeoutMs: 20_000, store: "FileMemoryStore" });

async function critical(): Promise<void> {
  appendFileSync(log, `enter ${process.pid}\n`);
  await new Promise((resolve) => setTimeout(resolve, 3));
  appendFileSync(log, `leave ${process.pid}\n`);
}

async function trial(): Promise<void> {
  if (mode === "writers") {
    await writers.exclusive("race", undefined, critical);
    return;
  }
  const release = await store.lockSession("raced", { timeoutMs: 20_000 });
  try {
    await critical();
  } finally {
    await release();
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  const [word, number, at] = line.split(" ");
  if (word !== "go") return;
  while (Date.now() < Number(at));
  trial().then(
    () => process.stdout.write(`done ${number}\n`),
    (error: unknown) => process.stdout.write(`error ${number} ${String(error).replaceAll("\n", " ")}\n`),
  );
});
process.stdout.write("ready\n");
