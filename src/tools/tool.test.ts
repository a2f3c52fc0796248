import { describe, expect, it } from "vitest";
import { z } from "zod";
import { tool } from "./tool";
import { toToolDefinitions } from "./tool-definitions";
import { serializeToolResult } from "../messages/serialize-tool-result";
import { executeToolCall } from "./execute-tool-call";

describe("tool()", () => {
  it("needs a zod schema and an execute function", () => {
    expect(() => tool({ execute: () => 1 } as never)).toThrow(expect.objectContaining({ argument: "parameters" }));
    expect(() => tool({ parameters: { type: "object" } as never, execute: () => 1 })).toThrow(/zod schema.*jsonSchema/);
    expect(() => tool({ parameters: z.object({}) } as never)).toThrow(expect.objectContaining({ argument: "execute" }));
  });

  it("gives the model the input JSON schema, defaults not required", () => {
    const search = tool({
      description: "Search",
      parameters: z.object({ query: z.string().describe("what"), limit: z.number().int().default(5) }),
      execute: ({ query, limit }) => `${query}:${limit}`,
    });
    expect(toToolDefinitions({ search })).toEqual([
      {
        name: "search",
        description: "Search",
        parameters: {
          type: "object",
          properties: {
            query: { type: "string", description: "what" },
            limit: { type: "integer", default: 5, minimum: -9007199254740991, maximum: 9007199254740991 },
          },
          required: ["query"],
        },
      },
    ]);
  });

  it("rejects tool names the providers refuse", () => {
    const noop = tool({ parameters: z.object({}), execute: () => "" });
    expect(() => toToolDefinitions({ "bad name": noop })).toThrow(
      expect.objectContaining({ argument: "tools.bad name" }),
    );
    expect(() => toToolDefinitions({ ["x".repeat(65)]: noop })).toThrow(/1-64/);
  });
});

describe("executeToolCall", () => {
  const context = { sessionId: "s", messages: [] };
  const add = tool({ parameters: z.object({ a: z.number(), b: z.number().default(1) }), execute: ({ a, b }) => a + b });

  it("validates and applies defaults before execute", async () => {
    const outcome = await executeToolCall({ add }, { id: "1", name: "add", arguments: { a: 2 } }, context);
    expect(outcome).toMatchObject({ result: 3, content: "3", isError: false });
  });

  it("does not find inherited names such as toString", async () => {
    const outcome = await executeToolCall({ add }, { id: "1", name: "toString", arguments: {} }, context);
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toBe('Error: Unknown tool "toString". Available tools: add.');
  });

  it("rethrows a failure when the run was aborted", async () => {
    const controller = new AbortController();
    const slow = tool({
      parameters: z.object({}),
      execute: () => {
        controller.abort();
        throw new Error("aborted fetch");
      },
    });
    await expect(
      executeToolCall(
        { slow },
        { id: "1", name: "slow", arguments: {} },
        { ...context, abortSignal: controller.signal },
      ),
    ).rejects.toThrow("aborted fetch");
  });

  it("serialises results for the model", () => {
    expect(serializeToolResult("text")).toBe("text");
    expect(serializeToolResult({ a: [1] })).toBe('{"a":[1]}');
    expect(serializeToolResult(undefined)).toBe("");
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(serializeToolResult(circular)).toBe("[object Object]");
  });
});
