import { parsePartialJson as aiParsePartialJson } from "ai";
import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./partial-json";

const documents = [
  { city: "Paris", temperature: -3.5, sunny: false, tags: ["a", 'b\n"c"'], nested: { n: null, t: true } },
  {
    items: [
      { name: "tea", price: 1e3 },
      { name: "caf\u00e9 \u2603", price: 0 },
    ],
    empty: {},
    list: [],
  },
  { text: "escapes \\ / \t \u0001 and unicode \ud83d\ude00", numbers: [1, 22, 333.25, -0.5e-7] },
];

describe("parsePartialJson", () => {
  it("reads every prefix of a JSON text as the ai package's parsePartialJson does", async () => {
    let compared = 0;
    for (const document of documents) {
      for (const json of [JSON.stringify(document), JSON.stringify(document, null, 2)]) {
        for (let end = 0; end <= json.length; end++) {
          const prefix = json.slice(0, end);
          const ours = parsePartialJson(prefix);
          const theirs = await aiParsePartialJson(prefix);
          // The ai package reads a number cut off after "." or "e" as the text so far; both read it as far as it is valid.
          if (theirs.state === "failed-parse" || theirs.state === "undefined-input") {
            expect(ours, prefix).toBeUndefined();
          } else {
            expect(ours, prefix).toEqual(theirs.value);
          }
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(500);
  });

  it("reads the whole text as JSON.parse does", () => {
    for (const document of documents) expect(parsePartialJson(JSON.stringify(document))).toEqual(document);
  });

  it("leaves out a key without its value and an escape cut in half", () => {
    expect(parsePartialJson('{"a": 1, "b')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 1, "b":')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: "x" });
    expect(parsePartialJson('{"a": "x\\u00')).toEqual({ a: "x" });
    expect(parsePartialJson('{"a": tr')).toEqual({ a: true });
    expect(parsePartialJson('{"a": -')).toEqual({});
    expect(parsePartialJson('{"a": 12.')).toEqual({ a: 12 });
  });

  it("skips a leading code fence and ignores text after a complete value", () => {
    expect(parsePartialJson('```json\n{"a": [1, 2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a": 1}\n```')).toEqual({ a: 1 });
  });

  it("gives undefined for text that is not the start of JSON", () => {
    expect(parsePartialJson("")).toBeUndefined();
    expect(parsePartialJson("   ")).toBeUndefined();
    expect(parsePartialJson("Sure! Here")).toBeUndefined();
    expect(parsePartialJson('{"a" 1}')).toBeUndefined();
    expect(parsePartialJson('{"a": 1,,}')).toBeUndefined();
    expect(parsePartialJson("[1 2]")).toBeUndefined();
  });
});
