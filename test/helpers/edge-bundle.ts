// Bundles code that imports "agentcore" the way an edge app's bundler does: the built package
// (dist/, through package.json "exports") resolved under the edge conditions, from a project
// whose node_modules/agentcore links to this repository.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build, type BuildOptions, type Metafile } from "esbuild";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The conditions of Next.js edge routes (edge-light), Cloudflare's bundler (workerd, worker) and browsers. */
export const EDGE_CONDITIONS = ["edge-light", "workerd", "worker", "browser"];

/** Every Node built-in, bare and with node: — left external, so a bundle that imports one still builds and says which. */
const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`), "node:*"];

export interface EdgeProject {
  directory: string;
  /** Writes a file of the app. */
  write(name: string, content: string): string;
  /** Bundles an entry of the app under the edge conditions. */
  bundle(entry: string, options?: BuildOptions): Promise<{ metafile: Metafile; outputs: string[] }>;
  remove(): void;
}

export function createEdgeProject(): EdgeProject {
  const directory = mkdtempSync(join(tmpdir(), "agentcore-edge-"));
  mkdirSync(join(directory, "node_modules"));
  symlinkSync(root, join(directory, "node_modules", "agentcore"), "dir");
  // What an edge app installs beside agentcore to hand it a tokenizer table (provideTokenizer).
  symlinkSync(join(root, "node_modules", "gpt-tokenizer"), join(directory, "node_modules", "gpt-tokenizer"), "dir");
  writeFileSync(join(directory, "package.json"), JSON.stringify({ name: "edge-app", private: true, type: "module" }));
  return {
    directory,
    write(name, content) {
      const path = join(directory, name);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
      return path;
    },
    async bundle(entry, options = {}) {
      const result = await build({
        entryPoints: [join(directory, entry)],
        bundle: true,
        platform: "browser",
        conditions: EDGE_CONDITIONS,
        format: "esm",
        target: "es2022",
        external: nodeBuiltins,
        metafile: true,
        logLevel: "silent",
        outdir: join(directory, "out"),
        ...options,
      });
      const metafile = result.metafile!;
      return { metafile, outputs: Object.keys(metafile.outputs) };
    },
    remove() {
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The Node built-ins a bundle imports, each with the files that import it. */
export function nodeBuiltinImports(metafile: Metafile): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  const builtins = new Set(nodeBuiltins);
  for (const [file, input] of Object.entries(metafile.inputs)) {
    for (const imported of input.imports) {
      if (imported.external && (builtins.has(imported.path) || imported.path.startsWith("node:")))
        (found[imported.path] ??= []).push(file);
    }
  }
  return found;
}
