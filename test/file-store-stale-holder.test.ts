// A run that holds a FileMemoryStore session lock in another process, and dies (SIGKILL) or
// stalls (SIGSTOP) past staleLockMs. The next run takes the session once the lock is stale, not
// before; a stalled holder that wakes up is refused every write (SessionLockLostError, nothing
// of it stored) and its release leaves the new holder's lock in place. The same stalled holder on
// a SqliteMemoryStore (lease 2000 ms) is fenced the same way.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SessionBusyError } from "../src/errors/session-busy-error";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { SqliteMemoryStore } from "../src/stores/sqlite/sqlite-memory-store";
import { bundleChild } from "./helpers/bundle";

const STALE_MS = 2000;
const directory = mkdtempSync(join(tmpdir(), "agentcore-stale-holder-"));
let child: string;
let cases = 0;

beforeAll(async () => {
  child = await bundleChild("test/helpers/file-session-holder-child.ts");
}, 60_000);
afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
  if (child) rmSync(dirname(child), { recursive: true, force: true });
});

/** Starts a holder on a fresh store; resolves once it holds session "s", with its lines to come. */
async function startHolder(kind: "file" | "sqlite" = "file"): Promise<{
  path: string;
  holder: ChildProcessWithoutNullStreams;
  next: () => Promise<string>;
}> {
  const path = join(directory, `case-${++cases}`, kind === "file" ? "sessions.json" : "agent.db");
  if (kind === "sqlite") mkdirSync(dirname(path));
  const holder = spawn(process.execPath, [child, path, kind], { stdio: ["pipe", "pipe", "pipe"] });
  onTestFinished(() => {
    holder.kill("SIGCONT");
    holder.kill("SIGKILL");
  });
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let errors = "";
  let buffered = "";
  holder.stderr.setEncoding("utf8").on("data", (chunk: string) => (errors += chunk));
  holder.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    buffered += chunk;
    const parts = buffered.split("\n");
    buffered = parts.pop()!;
    for (const line of parts) {
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    }
  });
  holder.on("exit", (code, signal) => {
    for (const waiter of waiting.splice(0)) waiter(`exited ${code ?? signal}: ${errors}`);
  });
  const next = () =>
    lines.length > 0 ? Promise.resolve(lines.shift()!) : new Promise<string>((resolve) => waiting.push(resolve));
  expect(await next()).toBe("locked");
  return { path, holder, next };
}

const ids = async (path: string) => (await new FileMemoryStore(path).getMessages("s")).map((message) => message.id);

describe("FileMemoryStore session lock of a holder in another process", () => {
  it("a SIGKILLed holder's lock is taken over once it is stale, not before", async () => {
    const { path, holder } = await startHolder();
    const exited = new Promise((resolve) => holder.on("exit", resolve));
    holder.kill("SIGKILL");
    await exited;
    const lockFile = readdirSync(dirname(path)).find((name) => name.endsWith(".lock"))!;
    const lastRefresh = statSync(join(dirname(path), lockFile)).mtimeMs;
    const next = new FileMemoryStore({ path, staleLockMs: STALE_MS });
    // The dead holder's lock file is still there, and fresh: the session is busy.
    await expect(next.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    const release = await next.lockSession("s", { timeoutMs: 30_000 });
    // Taken over only once the lock had gone a whole stale time without a refresh.
    expect(Date.now() - lastRefresh).toBeGreaterThanOrEqual(STALE_MS);
    await next.appendMessages("s", [{ id: "b-user", role: "user", content: "next run" }]);
    await release();
    expect(await ids(path)).toEqual(["a-user", "b-user"]);
  }, 60_000);

  it("a holder stalled past the stale time is refused its late write, stores nothing of it, and leaves the new holder's lock alone", async () => {
    const { path, holder, next } = await startHolder();
    holder.kill("SIGSTOP"); // a GC pause, a slow disk, a laptop lid
    const taker = new FileMemoryStore({ path, staleLockMs: STALE_MS });
    const release = await taker.lockSession("s", { timeoutMs: 30_000 });
    await taker.appendMessages("s", [
      { id: "b-user", role: "user", content: "question of the next run" },
      { id: "b-answer", role: "assistant", content: "answer of the next run" },
    ]);
    holder.kill("SIGCONT");
    holder.stdin.write("go\n");
    expect(await next()).toBe("refused SessionLockLostError s appendMessages");
    expect(await next()).toBe("released");
    // The woken holder's release did not remove the taker's lock: still held, its writes still pass the fence.
    await expect(new FileMemoryStore(path).lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(
      SessionBusyError.isInstance,
    );
    await taker.appendMessages("s", [{ id: "b-more", role: "user", content: "still the holder" }]);
    await release();
    expect(await ids(path)).toEqual(["a-user", "b-user", "b-answer", "b-more"]);
  }, 60_000);
});

describe("SqliteMemoryStore session lock of a holder in another process", () => {
  it("a holder stalled past its lease is refused its late write, stores nothing of it, and leaves the new holder's lock alone", async () => {
    const { path, holder, next } = await startHolder("sqlite");
    holder.kill("SIGSTOP"); // a GC pause, a slow disk, a laptop lid
    const taker = new SqliteMemoryStore(path);
    onTestFinished(() => taker.close());
    const release = await taker.lockSession("s", { timeoutMs: 30_000 }); // once the lease ran out
    await taker.appendMessages("s", [
      { id: "b-user", role: "user", content: "question of the next run" },
      { id: "b-answer", role: "assistant", content: "answer of the next run" },
    ]);
    holder.kill("SIGCONT");
    holder.stdin.write("go\n");
    expect(await next()).toBe("refused SessionLockLostError s appendMessages");
    expect(await next()).toBe("released");
    // The woken holder's release did not remove the taker's lock: still held, its writes still pass the fence.
    const other = new SqliteMemoryStore(path);
    await expect(other.lockSession("s", { timeoutMs: 0 })).rejects.toSatisfy(SessionBusyError.isInstance);
    other.close();
    await taker.appendMessages("s", [{ id: "b-more", role: "user", content: "still the holder" }]);
    await release();
    expect((await taker.getMessages("s")).map((message) => message.id)).toEqual([
      "a-user",
      "b-user",
      "b-answer",
      "b-more",
    ]);
  }, 60_000);
});
