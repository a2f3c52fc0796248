import { describe, expect, it } from "vitest";
import { normalizeFactKey } from "../tools/memory-tools";
import {
  isWorkingMemoryKey,
  ordinaryFacts,
  WORKING_MEMORY_CHANGES_KEY,
  workingMemoryFieldKey,
  workingMemoryPathOf,
} from "./working-memory-keys";

describe("working memory's fact keys", () => {
  it("encode a path lower-case, so camelCase fields stay apart in a store that folds case", () => {
    const key = workingMemoryFieldKey(["contact", "firstName"]);
    expect(key).toBe(key.toLowerCase());
    expect(workingMemoryFieldKey(["firstname"])).not.toBe(workingMemoryFieldKey(["firstName"]));
    expect(workingMemoryPathOf(key)).toEqual(["contact", "firstName"]);
  });

  it("round-trip any field name: dots, percent signs, non-ASCII", () => {
    for (const path of [["a.b", "c"], ["50%;off"], ["名前", "ÉTÉ"], ["emoji😀"]]) {
      expect(workingMemoryPathOf(workingMemoryFieldKey(path))).toEqual(path);
    }
    expect(workingMemoryFieldKey(["a.b", "c"])).not.toBe(workingMemoryFieldKey(["a", "b", "c"]));
  });

  it("are keys the memory tools can never make, and are left out of fact listings", () => {
    const key = workingMemoryFieldKey(["name"]);
    expect("error" in normalizeFactKey(key)).toBe(true);
    expect("error" in normalizeFactKey(WORKING_MEMORY_CHANGES_KEY)).toBe(true);
    expect(isWorkingMemoryKey(key)).toBe(true);
    expect(workingMemoryPathOf("name")).toBeUndefined();
    const fact = (factKey: string) => ({ key: factKey, value: "x", createdAt: 0, updatedAt: 0 });
    expect(ordinaryFacts([fact("name"), fact(key), fact(WORKING_MEMORY_CHANGES_KEY)])).toEqual([fact("name")]);
  });
});
