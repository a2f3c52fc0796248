import { describe, expect, it } from "vitest";
import { ARGUMENTS_TOO_DEEP, MAX_TOOL_ARGUMENTS_DEPTH } from "../messages/tool-arguments-depth";
import { parseToolArguments } from "./parse-tool-arguments";

describe("parseToolArguments", () => {
  it("parses an object and turns everything else into {}", () => {
    expect(parseToolArguments('{"city":"Oslo"}')).toEqual({ city: "Oslo" });
    expect(parseToolArguments("")).toEqual({});
    expect(parseToolArguments(undefined)).toEqual({});
    expect(parseToolArguments('{"city": "Os')).toEqual({});
    expect(parseToolArguments("[1,2]")).toEqual({});
    expect(parseToolArguments("null")).toEqual({});
    expect(parseToolArguments('"text"')).toEqual({});
  });
});

describe("parseToolArguments on deeply nested text", () => {
  const nestedText = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;

  it("keeps arguments up to MAX_TOOL_ARGUMENTS_DEPTH and bounds deeper ones, at any depth, without throwing", () => {
    const edge = parseToolArguments(nestedText(MAX_TOOL_ARGUMENTS_DEPTH));
    expect(edge).not.toBe(ARGUMENTS_TOO_DEEP);
    expect(JSON.stringify(edge)).toBe(nestedText(MAX_TOOL_ARGUMENTS_DEPTH));
    expect(parseToolArguments(nestedText(MAX_TOOL_ARGUMENTS_DEPTH + 1))).toBe(ARGUMENTS_TOO_DEEP);
    expect(parseToolArguments(nestedText(20_000))).toBe(ARGUMENTS_TOO_DEEP);
    expect(parseToolArguments(`{"list":${"[".repeat(100)}${"]".repeat(100)}}`)).toBe(ARGUMENTS_TOO_DEEP);
  });
});
