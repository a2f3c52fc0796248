// The tokenizer as the edge build has it (no synchronous load, no table imported: the two files
// the edge build swaps, mocked here the same way): without a table it counts the UTF-8 byte bound
// once loaded; with provideTokenizer it counts with the app's table, loaded only when used.
import * as o200k from "gpt-tokenizer/encoding/o200k_base";
import { beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("./load-encoding-sync", () => ({ loadEncodingSync: () => undefined }));
vi.mock("./import-encoding", () => ({ importEncoding: () => Promise.resolve(undefined) }));

type Modules = typeof import("./estimate-tokens") &
  typeof import("./provide-tokenizer") &
  Pick<typeof import("./tokenizer"), "isEncodingLoaded">;

let edge: Modules;

beforeEach(async () => {
  vi.resetModules(); // a fresh tokenizer state per test, as in a new isolate
  edge = {
    ...(await import("./estimate-tokens")),
    ...(await import("./provide-tokenizer")),
    isEncodingLoaded: (await import("./tokenizer")).isEncodingLoaded,
  };
});

const text = "Hello world, here is what happened on my trip to the mountains last week: héllo 日本";
const plain = { disallowedSpecial: new Set<string>() };

describe("the tokenizer on the edge", () => {
  it("throws TokenizerNotLoadedError before a load, then counts one token per UTF-8 byte without a table", async () => {
    expect(() => edge.estimateTokens(text)).toThrow(expect.objectContaining({ name: "TokenizerNotLoadedError" }));
    await edge.loadTokenizer();
    expect(edge.estimateTokens(text)).toBe(new TextEncoder().encode(text).length);
    expect(edge.estimateTokens(text)).toBeGreaterThan(o200k.countTokens(text, plain));
    // The byte bound is not a table: calibration keeps waiting for one.
    expect(edge.isEncodingLoaded("o200k_base")).toBe(false);
  });

  it("loads a provided table only when a model that needs it counts, once, and counts exactly with it", async () => {
    const loads: string[] = [];
    edge.provideTokenizer({
      o200k_base: async () => {
        loads.push("o200k_base");
        return import("gpt-tokenizer/encoding/o200k_base");
      },
      cl100k_base: () => {
        loads.push("cl100k_base");
        throw new Error("cl100k is not used here");
      },
    });
    expect(loads).toEqual([]);
    expect(() => edge.estimateTokens(text)).toThrow(expect.objectContaining({ name: "TokenizerNotLoadedError" }));
    await Promise.all([edge.loadTokenizer({ model: "gpt-4o" }), edge.loadTokenizer({ model: "claude-sonnet-4" })]);
    expect(loads).toEqual(["o200k_base"]);
    expect(edge.estimateTokens(text)).toBe(o200k.countTokens(text, plain));
    expect(edge.isEncodingLoaded("o200k_base")).toBe(true);
    expect(edge.isEncodingLoaded("cl100k_base")).toBe(false);
  });

  it("counts synchronously with a table given as a module, and replaces the byte bound with it", async () => {
    await edge.loadTokenizer();
    expect(edge.estimateTokens("hello world")).toBe(11);
    edge.provideTokenizer({ o200k_base: o200k });
    expect(edge.estimateTokens("hello world")).toBe(2);
  });

  it("refuses what is not a table with an InvalidArgumentError naming it", () => {
    const refused = (tables: unknown) => {
      try {
        edge.provideTokenizer(tables as never);
      } catch (error) {
        return { name: (error as Error).name, argument: (error as { argument?: string }).argument };
      }
      return undefined;
    };
    expect(refused({ p50k_base: o200k })).toEqual({ name: "InvalidArgumentError", argument: "tables.p50k_base" });
    expect(refused({ o200k_base: "o200k" })).toEqual({ name: "InvalidArgumentError", argument: "tables.o200k_base" });
    expect(refused(null)).toEqual({ name: "InvalidArgumentError", argument: "tables" });
  });
});
