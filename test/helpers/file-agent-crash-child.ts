// The writer of the agent-run crash test: runs agent turns on a FileMemoryStore forever, each
// with a model that answers after a random 0–2 ms (so kills land before, during and after the
// model call), printing "acked <turn>" after each run returns. Bundled by test/helpers/bundle.ts;
// argv[2] = path, argv[3] = compactAfterBytes.
import { Agent } from "../../src/agent/agent";
import type {
  LanguageModel,
  LanguageModelCall,
  LanguageModelResult,
  LanguageModelStreamPart,
} from "../../src/models/language-model";
import { FileMemoryStore } from "../../src/stores/file/file-memory-store";

const store = new FileMemoryStore({ path: process.argv[2]!, compactAfterBytes: Number(process.argv[3] ?? 8192) });

/** Answers "answer <n>" for the user message "turn <n> …", after a random delay. */
const model: LanguageModel = {
  provider: "crash",
  modelId: "random-delay",
  async doGenerate(call: LanguageModelCall): Promise<LanguageModelResult> {
    const last = call.messages.at(-1)!.content as string;
    await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
    return {
      text: `answer ${last.split(" ")[1]}`,
      toolCalls: [],
      finishReason: "stop",
      usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    };
  },
  async *doStream(): AsyncIterable<LanguageModelStreamPart> {
    throw new Error("not used");
  },
};

async function main(): Promise<void> {
  // Started ahead of time by the test (process start-up is slow on a busy machine): wait for "go".
  await new Promise((resolve) => process.stdin.once("data", resolve));
  // Every turn's user message is stored before its model call, so it numbers the turns.
  let turn = (await store.getMessages("shared")).filter((message) => message.role === "user").length;
  const agent = new Agent({ model, memory: "sliding_window", maxMessages: 6, memoryStore: store, sessionId: "shared" });
  process.stdout.write(`start ${turn}\n`);
  for (;;) {
    await agent.run(`turn ${turn} ${"x".repeat(200)}`);
    process.stdout.write(`acked ${turn}\n`);
    turn += 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
