import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { rejectUnknownOptions } from "./reject-unknown-options";

const known = ["path", "fsync"] as const;

function thrown(run: () => void): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    if (InvalidArgumentError.isInstance(error)) return error;
    throw error;
  }
  throw new Error("nothing was thrown");
}

describe("rejectUnknownOptions", () => {
  it("accepts known options and undefined values, and leaves anything but a plain object to the caller", () => {
    expect(() => rejectUnknownOptions("SomeStore", { path: "x", unknown: undefined }, known)).not.toThrow();
    expect(() => rejectUnknownOptions("SomeStore", { path: "x", fsync: false }, known)).not.toThrow();
    expect(() => rejectUnknownOptions("SomeStore", {}, known)).not.toThrow();
    for (const value of [undefined, null, "x", 3, ["path"]])
      expect(() => rejectUnknownOptions("SomeStore", value, known)).not.toThrow();
  });

  it("names the unknown option, its store and the known ones", () => {
    const error = thrown(() => rejectUnknownOptions("SomeStore", { path: "x", fsnyc: false }, known));
    expect(error.argument).toBe("fsnyc");
    expect(error.value).toBe(false);
    expect(error.message).toBe('new SomeStore() has no option "fsnyc". Its options are: path, fsync.');
  });

  it("names the right option for a known alias from another library", () => {
    const error = thrown(() => rejectUnknownOptions("SomeStore", { filename: "x" }, known, { filename: "path" }));
    expect(error.argument).toBe("filename");
    expect(error.message).toBe('new SomeStore() has no option "filename": use "path".');
    // A known option in another case is named too.
    expect(thrown(() => rejectUnknownOptions("SomeStore", { FSYNC: true }, known)).message).toContain('use "fsync"');
  });

  it("does not take Object.prototype members for aliases or known options", () => {
    const error = thrown(() => rejectUnknownOptions("SomeStore", JSON.parse('{"constructor": 1}'), known, {}));
    expect(error.argument).toBe("constructor");
    expect(error.message).not.toContain(": use");
  });
});
