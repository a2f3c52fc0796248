import { describe, expect, it } from "vitest";
import { allowsStrict, openAIResponseFormat } from "./openai-response-format";

const closed = (properties: Record<string, unknown>, required = Object.keys(properties)) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});

describe("openAIResponseFormat", () => {
  it("is json_schema with the name, the description and the schema", () => {
    const schema = closed({ a: { type: "string" } });
    expect(openAIResponseFormat({ type: "json", schema, name: "thing", description: "A thing" })).toEqual({
      type: "json_schema",
      json_schema: { name: "thing", description: "A thing", schema, strict: true },
    });
    expect(openAIResponseFormat({ type: "json", schema }).json_schema.name).toBe("response");
  });

  it("is strict only when every object is closed and lists all its properties as required, at every depth", () => {
    expect(
      allowsStrict(
        closed({ a: { type: ["string", "null"] }, b: { type: "array", items: closed({ c: { type: "number" } }) } }),
      ),
    ).toBe(true);
    expect(allowsStrict(closed({ a: { type: "string" }, b: { type: "string" } }, ["a"]))).toBe(false);
    expect(allowsStrict({ type: "object", properties: { a: { type: "string" } }, required: ["a"] })).toBe(false);
    expect(allowsStrict(closed({ list: { type: "array", items: closed({ c: { type: "number" } }, []) } }))).toBe(false);
    expect(allowsStrict(closed({ either: { anyOf: [closed({ x: { type: "string" } }), { type: "null" }] } }))).toBe(
      true,
    );
    expect(allowsStrict(closed({ either: { anyOf: [closed({ x: { type: "string" } }, []), { type: "null" }] } }))).toBe(
      false,
    );
    expect(
      allowsStrict({
        ...closed({ node: { $ref: "#/$defs/node" } }),
        $defs: { node: closed({ n: { type: "string" } }, []) },
      }),
    ).toBe(false);
    expect(allowsStrict(closed({ tags: { type: "array", items: { type: "string" }, uniqueItems: true } }))).toBe(false);
    expect(allowsStrict(closed({ both: { allOf: [{ type: "string" }] } }))).toBe(false);
  });
});
