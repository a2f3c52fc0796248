// The facts of FileMemoryStore: read from the state, each write one journal line.
import { validateScopeId } from "../../messages/session-id";
import type { FencedFacts } from "../built-in-store-parts";
import type { Fact } from "../memory-store";
import type { FileState } from "./file-state";
import type { FileStoreEngine } from "./file-store-engine";

/**
 * The fact reads and writes (`FencedFacts`): one journal line per write; a run's (naming its
 * `writer` session) fenced by the lock this store holds on that session, as its appends are.
 */
export class FileFacts implements FencedFacts {
  constructor(private readonly engine: FileStoreEngine) {}

  async getFacts(scopeId: string): Promise<Fact[]> {
    validateScopeId(scopeId);
    await this.engine.read("getFacts", scopeId);
    return structuredClone([...(this.engine.state.facts.get(scopeId)?.values() ?? [])]);
  }

  async factScopes(): Promise<string[]> {
    await this.engine.read("factScopes", undefined);
    return [...this.engine.state.facts].flatMap(([scopeId, facts]) => (facts.size > 0 ? [scopeId] : [])).sort();
  }

  async setFact(scopeId: string, fact: Fact, writer?: string): Promise<void> {
    validateScopeId(scopeId);
    const copy = structuredClone(fact);
    const change = () => ({ op: "fact", scope: scopeId, fact: copy }) as const;
    await this.engine.write("setFact", writer ?? scopeId, change, { fenced: writer !== undefined });
  }

  async deleteFact(scopeId: string, key: string, writer?: string): Promise<boolean> {
    validateScopeId(scopeId);
    let existed = false;
    const change = (state: FileState) => {
      existed = state.facts.get(scopeId)?.has(key) ?? false;
      return existed ? ({ op: "unfact", scope: scopeId, key } as const) : undefined;
    };
    await this.engine.write("deleteFact", writer ?? scopeId, change, { fenced: writer !== undefined });
    return existed;
  }
}
