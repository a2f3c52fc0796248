import { isDeepStrictEqual } from "node:util";
import { parsePartialJson as aiParsePartialJson } from "ai";
import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./partial-json";
import { PartialJsonParser } from "./partial-json-parser";
import { partialObjects } from "./partial-objects";

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
  it("reads every prefix of a JSON text as the ai package's parsePartialJson does, whole or one character at a time", async () => {
    let compared = 0;
    for (const document of documents) {
      for (const json of [JSON.stringify(document), JSON.stringify(document, null, 2)]) {
        const parser = new PartialJsonParser();
        let streamed: unknown;
        for (let end = 0; end <= json.length; end++) {
          const prefix = json.slice(0, end);
          const ours = parsePartialJson(prefix);
          parser.write(json.slice(end - 1, end));
          // `read` gives a value only when it changed.
          streamed = parser.read() ?? streamed;
          expect(streamed, prefix).toEqual(ours);
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

  it("reads a text cut into pieces anywhere as parsePartialJson reads each prefix, giving a value only when it changed", () => {
    const texts = documents.flatMap((document) => [
      JSON.stringify(document),
      `\`\`\`json\n${JSON.stringify(document, null, 1)}\n\`\`\``,
    ]);
    texts.push('{"a": 1.0, "b": [1e+2, -0.50, tru', '  {"a" 1}', "[1, 2] trailing", "``x", '\u00a0{"a": 1}');
    let compared = 0;
    for (const text of texts) {
      for (const size of [1, 2, 3, 5, 7, 64]) {
        const parser = new PartialJsonParser();
        let shown: unknown;
        for (let start = 0; start < text.length; start += size) {
          parser.write(text.slice(start, start + size));
          const value = parser.read();
          if (value !== undefined) expect(value, text).not.toEqual(shown);
          shown = value ?? shown;
          const expected = parsePartialJson(text.slice(0, start + size));
          expect(parser.failed ? undefined : shown, text.slice(0, start + size)).toEqual(expected);
          compared++;
        }
      }
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it("makes every key an own property as JSON.parse does, with Object.prototype as prototype (__proto__, constructor, prototype)", () => {
    const json = JSON.stringify({
      a: 1,
      nested: { ["__proto__"]: { polluted: "yes" }, constructor: { prototype: 1 }, prototype: "p", toString: 2 },
      list: [{ constructor: "c" }],
    }).replace('"a"', '"__proto__":{"admin":true},"a"');
    const parsed = JSON.parse(json);
    expect(Object.keys(parsed)).toContain("__proto__");
    const parser = new PartialJsonParser();
    for (let end = 1; end <= json.length; end++) {
      parser.write(json[end - 1]!);
      const value = parser.read() as Record<string, unknown> | undefined;
      for (const partial of [value, parsePartialJson(json.slice(0, end)) as Record<string, unknown>]) {
        if (partial === undefined) continue;
        expect(Object.getPrototypeOf(partial), json.slice(0, end)).toBe(Object.prototype);
        expect(String(partial)).toBe("[object Object]");
        expect((partial as { admin?: unknown }).admin).toBeUndefined();
        const nested = partial.nested as Record<string, unknown> | undefined;
        if (nested) expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
      }
    }
    const whole = parsePartialJson(json) as Record<string, unknown>;
    // node's strict deep equality (vitest's toStrictEqual reads an own "constructor" as the class).
    expect(isDeepStrictEqual(whole, parsed)).toBe(true);
    expect(Object.getOwnPropertyNames(whole)).toEqual(Object.getOwnPropertyNames(parsed));
    const nested = whole.nested as Record<string, unknown>;
    expect(Object.getOwnPropertyNames(nested)).toEqual(["__proto__", "constructor", "prototype", "toString"]);
    expect(Object.getOwnPropertyDescriptor(nested, "__proto__")).toEqual({
      value: { polluted: "yes" },
      writable: true,
      enumerable: true,
      configurable: true,
    });
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it("reads any depth without recursion, and fails past maxDepth", () => {
    const deep = `${"[".repeat(20_000)}1${"]".repeat(20_000)}`;
    expect(() => parsePartialJson(deep)).not.toThrow();
    expect(() => parsePartialJson(deep.slice(0, 20_001))).not.toThrow();
    const bounded = (depth: number) => {
      const parser = new PartialJsonParser({ maxDepth: 50 });
      parser.write(`${'{"a":'.repeat(depth - 1)}[1`);
      return parser;
    };
    expect(bounded(50).failed).toBe(false);
    expect(bounded(50).read()).toBeDefined();
    expect(bounded(51).failed).toBe(true);
    expect(bounded(51).read()).toBeUndefined();
  });

  it("reads a stream in linear work: each character once, and partials copy a bounded number of entries per character", () => {
    const wide = (items: number) =>
      JSON.stringify({ title: "t", items: Array.from({ length: items }, (_, id) => ({ id, tags: ["a", "b"] })) });
    const longString = (length: number) => JSON.stringify({ text: "x".repeat(length) });
    for (const make of [wide, longString]) {
      const work: number[] = [];
      for (const size of [2_000, 8_000]) {
        const json = make(size);
        const pick = partialObjects();
        const before = { ...PartialJsonParser.work };
        const partials: object[] = [];
        for (let start = 0; start < json.length; start += 3) {
          const partial = pick({ type: "text-delta", delta: json.slice(start, start + 3) });
          if (partial) partials.push(partial);
        }
        const last = pick({ type: "step-finish", stepNumber: 0, finishReason: "stop", usage: {} as never });
        if (last) partials.push(last);
        const characters = PartialJsonParser.work.characters - before.characters;
        const copied = PartialJsonParser.work.copied - before.copied;
        expect(characters).toBe(json.length);
        expect(copied).toBeLessThanOrEqual(17 * json.length);
        expect(partials.at(-1)).toEqual(JSON.parse(json));
        expect(partials.length).toBeGreaterThan(json.length / 1000);
        work.push(characters + copied);
      }
      // Four times the text, about four times the work (quadratic would be sixteen).
      expect(work[1]! / work[0]!).toBeLessThan(5);
    }
  });
});
