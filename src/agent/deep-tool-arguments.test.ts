// Tool arguments nested deeper than MAX_TOOL_ARGUMENTS_DEPTH: the model gets a tool error result,
// the call is stored with {}, and the run succeeds on every store (issue 30, item 7: 2,000 levels
// used to fail the run with a stack overflow when the turn was stored).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { MAX_TOOL_ARGUMENTS_DEPTH } from "../messages/tool-arguments-depth";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { InMemoryStore } from "../stores/in-memory-store";
import type { MemoryStore } from "../stores/memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";

const directory = mkdtempSync(join(tmpdir(), "agentcore-deep-arguments-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** `{ a: { a: … } }` with `depth` levels of objects. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 1; level < depth; level++) value = { a: value };
  return value;
}

const stores: [string, () => MemoryStore][] = [
  ["InMemoryStore", () => new InMemoryStore()],
  ["FileMemoryStore", () => new FileMemoryStore(join(directory, `${Math.random()}.json`))],
];

describe.each(stores)("tool arguments nested too deep, on %s", (_name, makeStore) => {
  for (const mode of ["run", "stream"] as const) {
    it(`answer the model with a tool error and store the call with {} (${mode})`, async () => {
      const received: unknown[] = [];
      const anything = tool({
        description: "Takes anything",
        parameters: z.any(),
        execute: async (input) => {
          received.push(input);
          return "ok";
        },
      });
      const model = new MockLanguageModel({
        responses: [
          {
            toolCalls: [
              { id: "deep", name: "anything", arguments: nested(2_000) },
              { id: "edge", name: "anything", arguments: nested(MAX_TOOL_ARGUMENTS_DEPTH) },
            ],
          },
          { text: "done" },
        ],
      });
      const store = makeStore();
      const agent = new Agent({ model, memoryStore: store, tools: { anything }, sessionId: "deep" });
      const result =
        mode === "run" ? await agent.run("go") : await agent.stream({ input: "go", sessionId: "deep" }).response;

      expect(result.text).toBe("done");
      expect(received).toEqual([nested(MAX_TOOL_ARGUMENTS_DEPTH)]);
      const sent = model.calls[1]!.messages;
      const deepResult = sent.find((message) => message.role === "tool" && message.toolCallId === "deep");
      expect(deepResult?.content).toBe(
        `Error: Invalid arguments for tool "anything": nested deeper than ${MAX_TOOL_ARGUMENTS_DEPTH} levels of objects and arrays, the limit for tool arguments; call it again with flatter arguments.`,
      );
      const stored = await store.getMessages("deep");
      expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
      const assistant = stored[1]!;
      expect(assistant.role === "assistant" && assistant.toolCalls).toEqual([
        { id: "deep", name: "anything", arguments: {} },
        { id: "edge", name: "anything", arguments: nested(MAX_TOOL_ARGUMENTS_DEPTH) },
      ]);
      expect(stored[3]).toMatchObject({ role: "tool", toolCallId: "edge", content: "ok" });
    });
  }
});
