import { describe, expect, it } from "vitest";
import { executeToolCall } from "./execute-tool-call";
import { jsonSchema } from "./json-schema";
import { tool } from "./tool";
import { toToolDefinitions } from "./tool-definitions";

const context = { sessionId: "s", messages: [] };
const call = (name: string, args: Record<string, unknown>) => ({ id: "1", name, arguments: args });

const bookSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    title: { type: "string", minLength: 1 },
    year: { type: "integer", minimum: 1450 },
    format: { type: "string", enum: ["paper", "ebook"] },
    contact: { type: "string", format: "email" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["title"],
};

describe("jsonSchema()", () => {
  it("needs a JSON Schema of an object", () => {
    expect(() => jsonSchema({ type: "string" })).toThrow(expect.objectContaining({ argument: "schema" }));
    expect(() => jsonSchema(null as never)).toThrow(/JSON Schema of an object/);
  });

  it("sends the schema to the model as given, without $schema", () => {
    const books = tool({ description: "Find books", parameters: jsonSchema(bookSchema), execute: () => "" });
    const { $schema: _ignored, ...expected } = bookSchema;
    expect(toToolDefinitions({ books })).toEqual([{ name: "books", description: "Find books", parameters: expected }]);
  });

  it("passes valid arguments to execute as the model wrote them", async () => {
    const seen: unknown[] = [];
    const books = tool({ parameters: jsonSchema(bookSchema), execute: (args) => (seen.push(args), "ok") });
    const outcome = await executeToolCall(
      { books },
      call("books", { title: "Dune", year: 1965, format: "paper", extra: true }),
      context,
    );
    expect(outcome).toMatchObject({ content: "ok", isError: false });
    expect(seen).toEqual([{ title: "Dune", year: 1965, format: "paper", extra: true }]);
  });

  it("sends the model every structural issue, and leaves formats to the tool", async () => {
    let runs = 0;
    const books = tool({ parameters: jsonSchema(bookSchema), execute: () => String(++runs) });
    const bad = await executeToolCall({ books }, call("books", { year: 1200.5, format: "vinyl", tags: [1] }), context);
    expect(bad.isError).toBe(true);
    expect(bad.content).toMatch(/^Error: Invalid arguments for tool "books": /);
    for (const path of ["title:", "year:", "format:", "tags.0:"]) expect(bad.content).toContain(path);
    expect(runs).toBe(0);
    const informal = await executeToolCall({ books }, call("books", { title: "Dune", contact: "the author" }), context);
    expect(informal).toMatchObject({ content: "1", isError: false });
  });

  it("honours additionalProperties: false and local $ref", async () => {
    const strict = tool({
      parameters: jsonSchema({
        type: "object",
        $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
        properties: { at: { $ref: "#/$defs/point" } },
        additionalProperties: false,
      }),
      execute: () => "ok",
    });
    expect((await executeToolCall({ strict }, call("strict", { at: { x: 1 } }), context)).isError).toBe(false);
    expect((await executeToolCall({ strict }, call("strict", { at: { x: "1" } }), context)).content).toContain("at.x:");
    expect((await executeToolCall({ strict }, call("strict", { at: { x: 1 }, more: 1 }), context)).content).toContain(
      "more",
    );
  });

  it("checks only for an object when zod cannot express the schema", async () => {
    const conditional = tool({
      parameters: jsonSchema({
        type: "object",
        properties: { a: { type: "string" } },
        if: { required: ["a"] },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then is the point of this test
        then: { required: ["b"] },
      }),
      execute: () => "ran",
    });
    expect(await executeToolCall({ conditional }, call("conditional", { a: 1 }), context)).toMatchObject({
      content: "ran",
      isError: false,
    });
  });

  it("takes a custom validator", async () => {
    const even = tool({
      parameters: jsonSchema<{ n: number }>(
        { type: "object", properties: { n: { type: "number" } } },
        {
          validate: (value) =>
            (value as { n: number }).n % 2 === 0
              ? { success: true, value: value as { n: number } }
              : { success: false, issues: ["n: must be even"] },
        },
      ),
      execute: ({ n }) => n / 2,
    });
    expect((await executeToolCall({ even }, call("even", { n: 4 }), context)).content).toBe("2");
    expect((await executeToolCall({ even }, call("even", { n: 3 }), context)).content).toBe(
      'Error: Invalid arguments for tool "even": n: must be even. Fix the arguments and call it again.',
    );
  });

  it("refuses a schema whose $ref loops back without describing a deeper part of the input", () => {
    const loops = [
      { type: "object", properties: { x: { $ref: "#/$defs/a" } }, $defs: { a: { $ref: "#/$defs/a" } } },
      {
        type: "object",
        $defs: { a: { $ref: "#/$defs/b" }, b: { anyOf: [{ type: "string" }, { $ref: "#/$defs/a" }] } },
      },
      { type: "object", allOf: [{ $ref: "#" }] },
      {
        type: "object",
        properties: { x: { $ref: "#/$defs/a~1b" } },
        $defs: { "a/b": { not: { $ref: "#/$defs/a~1b" } } },
      },
    ];
    for (const schema of loops) {
      expect(() => jsonSchema(schema)).toThrow(
        expect.objectContaining({
          name: "InvalidArgumentError",
          argument: "schema",
          message: expect.stringContaining("refers back to itself"),
        }),
      );
    }
    let deep: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < 5_000; level++) deep = { type: "object", properties: { x: deep } };
    expect(() => jsonSchema(deep)).toThrow(/nested deeper than 200 levels/);
  });

  it("checks a recursive schema (a tree), and refuses arguments nested too deep as a tool error", async () => {
    const node = {
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name"],
    };
    const received: unknown[] = [];
    const tree = tool({ parameters: jsonSchema(node), execute: (input) => void received.push(input) });
    const shallow = { name: "root", children: [{ name: "leaf", children: [] }] };
    expect((await executeToolCall({ tree }, call("tree", shallow), context)).isError).toBe(false);
    expect((await executeToolCall({ tree }, call("tree", { name: "root", children: [{}] }), context)).content).toMatch(
      /children\.0\.name/,
    );
    let deep: Record<string, unknown> = { name: "leaf" };
    for (let level = 0; level < 20_000; level++) deep = { name: "n", children: [deep] };
    const outcome = await executeToolCall({ tree }, call("tree", deep), context);
    expect(outcome).toMatchObject({ isError: true, errorType: "InvalidToolInputError" });
    expect(outcome.content).toMatch(/nested deeper than 50 levels/);
    // validate() itself, called directly, answers too rather than overflowing the stack.
    expect(jsonSchema(node).validate(deep)).toMatchObject({ success: false });
    expect(received).toEqual([shallow]);
  });
});
