// The writer of the crash test: appends numbered turns to a FileMemoryStore forever, printing
// "acked <n>" after each append resolves. Bundled by test/helpers/bundle.ts; argv[2] = path.
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";

const store = new FileMemoryStore({ path: process.argv[2]!, compactAfterBytes: Number(process.argv[3] ?? 8192) });

async function main(): Promise<void> {
  // Started ahead of time by the test (process start-up is slow on a busy machine): wait for "go".
  await new Promise((resolve) => process.stdin.once("data", resolve));
  let turn = (await store.getMessages("shared")).length / 2;
  process.stdout.write(`start ${turn}\n`);
  for (;;) {
    await store.appendMessages("shared", [
      { id: `c${turn}-u`, role: "user", content: `turn ${turn} ${"x".repeat(200)}`, timestamp: Date.now() },
      { id: `c${turn}-a`, role: "assistant", content: `answer ${turn}`, timestamp: Date.now() },
    ]);
    turn += 1;
    process.stdout.write(`acked ${turn}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
