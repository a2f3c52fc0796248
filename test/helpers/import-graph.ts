// The import graph of src/, for test/architecture.test.ts: every relative import, re-export and
// dynamic import of each source file (tests excluded), resolved to the file it names.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";

export interface SourceFile {
  /** Path relative to src/, with forward slashes (`tokens/estimate-tokens.ts`). */
  path: string;
  lines: number;
  /** The src/ files it imports, as paths relative to src/. */
  imports: string[];
}

export const isTestFile = (path: string) => path.endsWith(".test.ts");

/** Every `.ts` file under `root` that is not a test, with its lines and resolved relative imports. */
export function readSourceFiles(root: string): SourceFile[] {
  const files: string[] = [];
  const walk = (directory: string) => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !isTestFile(entry.name)) files.push(path);
    }
  };
  walk(root);
  const toKey = (path: string) => relative(root, path).split(sep).join("/");
  return files.map((file) => {
    const text = readFileSync(file, "utf8");
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((imported) => imported.fileName);
    const imports = specifiers
      .filter((specifier) => specifier.startsWith("."))
      .map((specifier) => resolveImport(dirname(file), specifier))
      .filter((target): target is string => target !== undefined)
      .map(toKey);
    return { path: toKey(file), lines: text.split("\n").length - (text.endsWith("\n") ? 1 : 0), imports };
  });
}

function resolveImport(directory: string, specifier: string): string | undefined {
  const base = resolve(directory, specifier);
  for (const candidate of [`${base}.ts`, join(base, "index.ts"), base.replace(/\.js$/, ".ts"), base]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** The folder of src/ a file belongs to (`tokens`), or `""` for the files at the root (`index.ts`). */
export const folderOf = (path: string) => (path.includes("/") ? path.slice(0, path.indexOf("/")) : "");

/** The directory a file is in, subfolders kept (`models/openai`), or `""` at the root. */
export const directoryOf = (path: string) => (path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "");

/**
 * The folder-to-folder graph: `from → { to → the file imports that make the edge }`. Folders are
 * the top-level parts of src/ (`folderOf`), or every directory (`directoryOf`: a subfolder is a
 * node of its own, so a loop between a folder and its subfolder shows).
 */
export function folderGraph(
  files: SourceFile[],
  nodeOf: (path: string) => string = folderOf,
): Map<string, Map<string, string[]>> {
  const graph = new Map<string, Map<string, string[]>>();
  for (const file of files) {
    for (const target of file.imports) {
      const from = nodeOf(file.path);
      const to = nodeOf(target);
      if (from === to) continue;
      const edges = graph.get(from) ?? new Map<string, string[]>();
      graph.set(from, edges);
      edges.set(to, [...(edges.get(to) ?? []), `${file.path} → ${target}`]);
    }
  }
  return graph;
}

/** The import loops of a graph: its strongly connected components of more than one node (Tarjan). */
export function findLoops(graph: Map<string, Iterable<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const loops: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) loops.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return loops;
}

/**
 * The imports that go up or sideways in `layers` (bottom first): a folder may import only the
 * folders listed before it. Folders missing from `layers` are reported too.
 */
export function layerViolations(graph: Map<string, Map<string, string[]>>, layers: readonly string[]): string[] {
  const rank = (folder: string) => layers.indexOf(folder);
  const violations: string[] = [];
  for (const [from, edges] of graph) {
    for (const [to, imports] of edges) {
      if (rank(from) === -1 || rank(to) === -1) {
        violations.push(`folder "${rank(from) === -1 ? from : to}" has no place in the layer list: ${imports[0]}`);
      } else if (rank(to) > rank(from)) {
        violations.push(...imports.map((edge) => `${from}/ may not import ${to}/: ${edge}`));
      }
    }
  }
  return violations;
}
