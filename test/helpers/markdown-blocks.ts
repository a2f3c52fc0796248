// The TypeScript code blocks of a Markdown document, with the markers a document puts on the line
// before a block (an HTML comment, invisible when rendered):
//
//   <!-- partial -->                 a fragment (it uses names its page set up before, or is a
//                                    sketch of a part): type-checked, not run
//   <!-- file: my-redis-store.ts --> the block is that file, so a later block can import it
//
// Both can be combined: <!-- partial; file: x.ts -->.
import { readFileSync } from "node:fs";

export interface MarkdownBlock {
  /** The document, as given. */
  document: string;
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  partial: boolean;
  /** The file name the block asks for, if any. */
  file: string | undefined;
}

/** Every ```ts / ```typescript block of `document` (a path). Other languages (sh, text) are not TypeScript. */
export function typescriptBlocks(document: string): MarkdownBlock[] {
  const lines = readFileSync(document, "utf8").split("\n");
  const blocks: MarkdownBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const start = index + 1;
    let end = start;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    if (open[2] === "ts" || open[2] === "typescript") {
      let before = index - 1;
      while (before >= 0 && lines[before]!.trim() === "") before--;
      const marker = before >= 0 ? /^\s*<!--(.*)-->\s*$/.exec(lines[before]!)?.[1] : undefined;
      blocks.push({
        document,
        line: start + 1,
        code: lines
          .slice(start, end)
          .map((line) => line.slice(Math.min(indent, line.length - line.trimStart().length)))
          .join("\n"),
        partial: marker !== undefined && /\bpartial\b/.test(marker),
        file: marker === undefined ? undefined : /\bfile:\s*([\w.-]+)/.exec(marker)?.[1],
      });
    }
    index = end;
  }
  return blocks;
}

/** The names a block declares or imports itself (so a fragment is not given another by the harness). */
export function declaredNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(/\b(?:const|let|var|class|function|interface|type|enum)\s+([A-Za-z_$][\w$]*)/g))
    names.add(match[1]!);
  for (const match of code.matchAll(
    /\bimport\s+(?:type\s+)?([\w$]+)?\s*,?\s*(?:\{([^}]*)\})?\s*(?:\*\s+as\s+([\w$]+))?\s*from/g,
  )) {
    if (match[1]) names.add(match[1]);
    if (match[3]) names.add(match[3]);
    for (const specifier of (match[2] ?? "").split(",")) {
      const name = specifier
        .trim()
        .replace(/^type\s+/, "")
        .split(/\s+as\s+/)
        .at(-1)
        ?.trim();
      if (name) names.add(name);
    }
  }
  return names;
}
