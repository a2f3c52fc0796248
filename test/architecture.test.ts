// The shape of src/ (docs/architecture.md): folders depend only downward, no file imports itself
// back through a loop, no source file is over 400 lines. Each check first proves on a made-up
// graph that it can fail.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  directoryOf,
  findLoops,
  folderGraph,
  layerViolations,
  readSourceFiles,
  type SourceFile,
} from "./helpers/import-graph";
import { optionalStoreAccesses, programOf, virtualProgram } from "./helpers/store-probes";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "..", "src");

/** The folders of src/, bottom first: each may import only the folders before it (docs/architecture.md). */
const LAYERS = [
  "errors",
  "messages",
  "models",
  "tokens",
  "stores",
  "providers",
  "strategies",
  "tools",
  "ui",
  "agent",
  "streaming",
  "testing",
  "inspector",
  "cli",
  "", // src/index.ts, the root export
] as const;

const MAX_LINES = 400;
/** `runTurn` stays one page that reads like the run loop's pseudocode (docs/architecture.md). */
const MAX_RUN_TURN_LINES = 60;

/**
 * The length in lines of an exported generator function: from `export async function* name` to its
 * closing brace at column 0 (undefined when the file has no such function or it never closes).
 */
const generatorLines = (text: string, name: string): number | undefined => {
  const lines = text.split("\n");
  const start = lines.findIndex((line) => line.startsWith(`export async function* ${name}(`));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith("}"));
  return end === -1 ? undefined : end - start + 1;
};

const file = (path: string, ...imports: string[]): SourceFile => ({ path, lines: 1, imports });
const filesOver = (files: SourceFile[], max: number) =>
  files.filter((source) => source.lines > max).map((source) => `${source.path} (${source.lines} lines)`);
const fileGraph = (files: SourceFile[]) => new Map(files.map((source) => [source.path, source.imports]));
const loopsOf = (graph: Map<string, Map<string, string[]>>) =>
  findLoops(new Map([...graph].map(([from, edges]) => [from, edges.keys()])));

/** What a strategies/ file may import from stores/: the backend lookup and contract, the store types and the default store. */
const STRATEGY_STORE_IMPORTS = [
  "stores/backend-of.ts",
  "stores/store-backend.ts",
  "stores/memory-store.ts",
  "stores/in-memory-store.ts",
];

/** The optional `MemoryStore` methods: only the fallback backend asks whether a store has one. */
const OPTIONAL_STORE_METHODS = [
  "appendMessages",
  "deleteMessagesFrom",
  "getMessageTail",
  "getSession",
  "updateSession",
  "entries",
  "prune",
  "getSummaries",
  "saveSummary",
  "lockSession",
  "factScopes",
  "saveContextReport",
  "getContextReports",
  "listSessions",
  "getMessageRange",
  "getUsage",
  "deleteUserData",
];
/** The one file that probes a store's capabilities (docs/architecture.md, "The store backend"). */
const FALLBACK_BACKEND = "stores/fallback-backend.ts";
const capabilityProbe = new RegExp(
  `typeof\\s+[\\w$.?]+(?:\\.(?:${OPTIONAL_STORE_METHODS.join("|")})\\b|\\[[^\\]]*\\])\\s*[!=]==?\\s*["']function["']`,
);
/**
 * Source files that ask whether a store has an optional method, other than the fallback backend
 * (and the conformance suite of `testing/`, which checks a user's store from outside, as a test).
 */
const capabilityProbes = (sources: { path: string; text: string }[]) =>
  sources
    .filter((source) => source.path !== FALLBACK_BACKEND && !source.path.startsWith("testing/"))
    .filter((source) => capabilityProbe.test(source.text))
    .map((source) => source.path);

/** The one lookup of a store's backend, and the one key a built-in store gives it under. */
const BACKEND_LOOKUP = "stores/backend-of.ts";
const BACKEND_KEY = "stores/store-backend.ts";
/**
 * Store side doors: a symbol made in stores/ anywhere but the backend's key, a `Symbol.for("agentcore.…")`
 * key of a store read elsewhere, or the backend's key read (not defined) outside the lookup.
 */
const storeSideDoors = (sources: { path: string; text: string }[]) =>
  sources.flatMap((source) => {
    const found: string[] = [];
    if (source.path.startsWith("stores/") && source.path !== BACKEND_KEY && /\bSymbol(?:\.for)?\(/.test(source.text))
      found.push(`${source.path}: a symbol`);
    if (
      /Symbol\.for\(\s*["']agentcore\.(?:store|turn|fenced|replace|readStored)/i.test(source.text) &&
      source.path !== BACKEND_KEY
    )
      found.push(`${source.path}: a symbol-keyed store door`);
    // `[storeBackend](): StoreBackend` declares or defines a store's backend; any other use reads it.
    if (source.path !== BACKEND_LOOKUP && /\[storeBackend\](?!\(\): StoreBackend[ ;])/.test(source.text))
      found.push(`${source.path}: reads [storeBackend]`);
    return found;
  });
/** Files that the backend replaced: the adapter, the turn's side doors. */
const REMOVED_STORE_FILES = [
  "stores/store-adapter.ts",
  "stores/turn-folding.ts",
  "stores/stored-tail.ts",
  "stores/delete-messages-from.ts",
  "stores/fenced-facts.ts",
];
const strategyStoreImports = (files: SourceFile[]) =>
  files.flatMap((source) =>
    source.path.startsWith("strategies/")
      ? source.imports
          .filter((target) => target.startsWith("stores/") && !STRATEGY_STORE_IMPORTS.includes(target))
          .map((target) => `${source.path} → ${target}`)
      : [],
  );

describe("the checks can fail", () => {
  const looping = [
    file("tokens/trim.ts", "strategies/select.ts"),
    file("strategies/select.ts", "tokens/count.ts"),
    file("tokens/count.ts"),
  ];

  it("finds a loop between folders and names its folders", () => {
    expect(findLoops(new Map([...folderGraph(looping)].map(([from, edges]) => [from, edges.keys()])))).toEqual([
      ["strategies", "tokens"],
    ]);
  });

  it("finds an import that goes up the layers and names the file", () => {
    expect(layerViolations(folderGraph(looping), ["tokens", "strategies"])).toEqual([
      "tokens/ may not import strategies/: tokens/trim.ts → strategies/select.ts",
    ]);
    expect(layerViolations(folderGraph([file("newpart/a.ts", "tokens/count.ts")]), ["tokens"])).toEqual([
      'folder "newpart" has no place in the layer list: newpart/a.ts → tokens/count.ts',
    ]);
  });

  it("finds a loop between a folder and its subfolder, which the top-level graph cannot see", () => {
    const nested = [
      file("models/registry.ts", "models/openai/provider.ts"),
      file("models/openai/provider.ts", "models/registry.ts"),
    ];
    expect(loopsOf(folderGraph(nested))).toEqual([]);
    expect(loopsOf(folderGraph(nested, directoryOf))).toEqual([["models", "models/openai"]]);
  });

  it("finds a capability probe outside the fallback backend, and no probe of a required method", () => {
    expect(
      capabilityProbes([
        { path: "agent/run.ts", text: 'if (typeof store.appendMessages === "function") {}' },
        { path: "cli/list.ts", text: "const listing = typeof options.store?.entries !== 'function';" },
        { path: "tools/any.ts", text: 'const has = (m) => typeof store[m] === "function";' },
        { path: FALLBACK_BACKEND, text: 'const has = (m) => typeof store[m] === "function";' },
        { path: "inspector/handler.ts", text: 'if (typeof options.store?.getMessages !== "function") throw error;' },
      ]),
    ).toEqual(["agent/run.ts", "cli/list.ts", "tools/any.ts"]);
  });

  it("finds a store side door: a symbol of stores/, a store's symbol key read elsewhere, the backend's key read outside the lookup", () => {
    expect(
      storeSideDoors([
        { path: "stores/turn-folding.ts", text: 'export const turnFolding = Symbol.for("agentcore.turnFolding");' },
        { path: "stores/stored-tail.ts", text: 'export const readStoredTail = Symbol("agentcore.readStoredTail");' },
        { path: "agent/run.ts", text: 'const folding = store[Symbol.for("agentcore.turnFolding")];' },
        { path: "cli/facts.ts", text: "const backend = store[storeBackend]();" },
        { path: BACKEND_KEY, text: 'export const storeBackend = Symbol.for("agentcore.storeBackend");' },
        { path: BACKEND_LOOKUP, text: "const own = store[storeBackend];" },
        { path: "stores/file/file-memory-store.ts", text: "  [storeBackend](): StoreBackend {" },
        { path: "tools/json-schema.ts", text: 'const marker = Symbol.for("agentcore.tools.jsonSchema");' },
      ]),
    ).toEqual([
      "stores/turn-folding.ts: a symbol",
      "stores/turn-folding.ts: a symbol-keyed store door",
      "stores/stored-tail.ts: a symbol",
      "agent/run.ts: a symbol-keyed store door",
      "cli/facts.ts: reads [storeBackend]",
    ]);
  });

  it("finds a strategy that imports a store module other than the backend", () => {
    expect(
      strategyStoreImports([
        file("strategies/window.ts", "stores/backend-of.ts", "stores/memory-store.ts"),
        file("strategies/storage.ts", "stores/session-queue.ts", "stores/redis/index.ts"),
      ]),
    ).toEqual(["strategies/storage.ts → stores/session-queue.ts", "strategies/storage.ts → stores/redis/index.ts"]);
  });

  it("finds a strategy that reaches an optional store method itself, however it holds the store", () => {
    const program = virtualProgram("/virtual", {
      "stores/memory-store.ts": `export interface MemoryStore {
        getMessages(sessionId: string): string[];
        appendMessages?(sessionId: string, messages: string[]): void;
        entries?(): string[];
      }`,
      "stores/store-backend.ts": `export interface StoreBackend { appendMessages(sessionId: string, messages: string[]): void }`,
      "stores/backend-of.ts": `import type { MemoryStore } from "./memory-store";
        import type { StoreBackend } from "./store-backend";
        export declare function backendOf(store: MemoryStore): StoreBackend;`,
      "strategies/probe.ts": `import type { MemoryStore } from "../stores/memory-store";
        import { backendOf } from "../stores/backend-of";
        export function write(backing: MemoryStore, messages: string[]) {
          if (typeof backing.appendMessages === "function") backing.appendMessages("s", messages);
          const { entries } = backing;
          backendOf(backing).appendMessages("s", backing.getMessages("s"));
          return entries;
        }`,
    });
    expect(
      optionalStoreAccesses(program, "/virtual", "stores/memory-store.ts", (path) => path.startsWith("strategies/")),
    ).toEqual([
      "strategies/probe.ts:4 MemoryStore.appendMessages",
      "strategies/probe.ts:4 MemoryStore.appendMessages",
      "strategies/probe.ts:5 MemoryStore.entries",
    ]);
  });

  it("finds a loop between two files of one folder", () => {
    expect(
      findLoops(
        fileGraph([file("models/registry.ts", "models/defaults.ts"), file("models/defaults.ts", "models/registry.ts")]),
      ),
    ).toEqual([["models/defaults.ts", "models/registry.ts"]]);
  });

  it("finds a file over the line limit", () => {
    expect(
      filesOver(
        [
          { path: "big.ts", lines: 401, imports: [] },
          { path: "small.ts", lines: 400, imports: [] },
        ],
        MAX_LINES,
      ),
    ).toEqual(["big.ts (401 lines)"]);
  });

  it("measures runTurn from its signature to its closing brace, and finds one over its limit", () => {
    const made = (bodyLines: number) =>
      [
        "import { x } from './x';",
        "export async function* runTurn(",
        "  config: AgentConfig,",
        "): AsyncGenerator<AgentStreamPart, AgentResult> {",
        ...Array.from({ length: bodyLines }, (_, index) => `  const step${index} = { nested: true };`),
        "  if (x) {",
        "  }",
        "}",
        "function after() {",
        "}",
      ].join("\n");
    expect(generatorLines(made(10), "runTurn")).toBe(16);
    expect(generatorLines(made(54), "runTurn")).toBe(MAX_RUN_TURN_LINES);
    expect(generatorLines(made(55), "runTurn")).toBe(MAX_RUN_TURN_LINES + 1);
    expect(generatorLines("export function runTurn() {\n}", "runTurn")).toBeUndefined();
  });
});

describe("src/", () => {
  const files = readSourceFiles(src);
  const folders = folderGraph(files);

  it("reads the whole tree", () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files.find((source) => source.path === "index.ts")?.imports.length).toBeGreaterThan(10);
  });

  it("has no import loop between folders", () => {
    expect(loopsOf(folders)).toEqual([]);
  });

  it("has no import loop between folders at any depth (a folder and its subfolders included)", () => {
    expect(loopsOf(folderGraph(files, directoryOf))).toEqual([]);
  });

  it("has folders that import only the folders below them", () => {
    expect(layerViolations(folders, LAYERS)).toEqual([]);
  });

  it("has no import loop between files", () => {
    expect(findLoops(fileGraph(files))).toEqual([]);
  });

  it("keeps the optional-peer adapters behind their subpaths: no other file imports them", () => {
    const adapters = ["stores/redis/", "stores/postgres/", "stores/sqlite/", "stores/upstash/", "tools/mcp/"];
    const adapterOf = (path: string) => adapters.find((prefix) => path.startsWith(prefix));
    // A file of an adapter that reaches no optional peer, not even through the files it imports (the
    // Redis store's Lua scripts, key layout and session index, shared with the Upstash store), may be
    // imported by another adapter: it brings no peer with it.
    const byPath = new Map(files.map((source) => [source.path, source]));
    const peerImport =
      /(?:from\s*|import\(\s*)["'](?:ioredis|pg|better-sqlite3|@upstash\/redis|@modelcontextprotocol\/sdk[^"']*)["']/;
    const bringsPeer = (path: string, seen = new Set<string>()): boolean => {
      if (seen.has(path)) return false;
      seen.add(path);
      const source = byPath.get(path);
      return (
        source === undefined ||
        peerImport.test(readFileSync(resolve(src, path), "utf8")) ||
        source.imports.some((target) => bringsPeer(target, seen))
      );
    };
    const reaching = files.flatMap((source) =>
      source.imports
        .filter(
          (target) =>
            adapterOf(target) && adapterOf(target) !== adapterOf(source.path) && !source.path.startsWith("cli/"),
        )
        .filter((target) => !adapterOf(source.path) || bringsPeer(target))
        .map((target) => `${source.path} → ${target}`),
    );
    expect(reaching).toEqual([]);
    // The exception holds only while the shared files stay peer-free.
    expect(bringsPeer("stores/redis/redis-scripts.ts")).toBe(false);
    expect(bringsPeer("stores/redis/redis-store-core.ts")).toBe(false); // both Redis stores' shared logic
    expect(bringsPeer("stores/redis/redis-memory-store.ts")).toBe(true);
  });

  it("reaches every store through one backend: one lookup, one key, no side doors, no probing outside the fallback (docs/architecture.md, the store backend)", () => {
    const sources = files.map((source) => ({
      path: source.path,
      text: readFileSync(resolve(src, source.path), "utf8"),
    }));
    expect(REMOVED_STORE_FILES.filter((path) => existsSync(resolve(src, path)))).toEqual([]);
    expect(storeSideDoors(sources)).toEqual([]);
    expect(capabilityProbes(sources)).toEqual([]);
    // The lookup is the one place that reads the key, and every built-in store gives its backend under it.
    expect(
      sources
        .filter((source) => source.text.includes("(store as Partial<BuiltInStore>)[storeBackend]"))
        .map((s) => s.path),
    ).toEqual([BACKEND_LOOKUP]);
    const builtIn = sources
      .filter((source) => source.text.includes("[storeBackend](): StoreBackend {"))
      .map((s) => s.path);
    expect(builtIn.sort()).toEqual([
      "stores/file/file-memory-store.ts",
      "stores/in-memory-store.ts",
      "stores/postgres/postgres-memory-store.ts",
      "stores/redis/redis-store-core.ts",
      "stores/sqlite/sqlite-memory-store.ts",
    ]);
  });

  it("has strategies that reach stores only through the backend (docs/architecture.md, the store backend)", () => {
    expect(strategyStoreImports(files)).toEqual([]);
    // The strategies, with the store files they may import (so a store reached through the adapter is typed as one).
    const checked = files
      .filter((source) => source.path.startsWith("strategies/") || STRATEGY_STORE_IMPORTS.includes(source.path))
      .map((source) => resolve(src, source.path));
    const program = programOf(checked, resolve(src, "..", "tsconfig.json"));
    expect(
      optionalStoreAccesses(program, src, "stores/memory-store.ts", (path) => path.startsWith("strategies/")),
    ).toEqual([]);
  });

  it(`has no source file over ${MAX_LINES} lines (tests excluded)`, () => {
    expect(filesOver(files, MAX_LINES)).toEqual([]);
  });

  it(`keeps runTurn to one page: at most ${MAX_RUN_TURN_LINES} lines (docs/architecture.md, the run loop)`, () => {
    const lines = generatorLines(readFileSync(resolve(src, "agent/run-turn.ts"), "utf8"), "runTurn");
    expect(lines).toBeDefined();
    expect(lines).toBeLessThanOrEqual(MAX_RUN_TURN_LINES);
  });
});
