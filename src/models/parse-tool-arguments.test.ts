import { describe, expect, it } from "vitest";
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
