// The relative links of a Markdown document and whether each reaches a file, and for a link into a
// Markdown file with `#anchor`, one of its headings. Anchors are GitHub's: the heading lower-cased,
// punctuation dropped, spaces as `-`, a repeated heading `-1`, `-2`, ... Code blocks are skipped.
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** The lines of `text` outside fenced code blocks, with their 1-based numbers. */
function proseLines(text: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = [];
  let fenced = false;
  text.split("\n").forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) lines.push({ line: index + 1, text: line });
  });
  return lines;
}

/** The anchors GitHub gives the headings of a Markdown document. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { text: line } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The targets of `[text](target)`, `src="target"` and `href="target"` that are not URLs. */
export function relativeLinks(text: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  for (const { line, text: prose } of proseLines(text)) {
    const outsideCode = prose.replace(/`[^`]*`/g, "``");
    for (const match of outsideCode.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)|\b(?:src|href)="([^"]+)"/g)) {
      const target = match[1] ?? match[2]!;
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) links.push({ line, target });
    }
  }
  return links;
}

/** Each relative link of `document` (a path) that reaches no file, or no heading of a Markdown file. */
export function brokenLinks(document: string, read: (path: string) => string = readText): string[] {
  const broken: string[] = [];
  for (const { line, target } of relativeLinks(read(document))) {
    const [path = "", anchor] = target.split("#");
    const file = path === "" ? document : resolve(dirname(document), decodeURIComponent(path));
    const exists = path === "" || existsSync(file);
    const anchored = !exists || anchor === undefined || !file.endsWith(".md") || headingAnchors(read(file)).has(anchor);
    if (!exists || !anchored) broken.push(`${document}:${line} ${target}`);
  }
  return broken;
}

function readText(path: string): string {
  return readFileSync(path, "utf8");
}
