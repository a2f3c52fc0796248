// examples/working-memory.ts runs offline as docs/working-memory.md says, from the package as a
// user's copy would import it, and prints what it promises.
import { execFile } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const tsx = pathToFileURL(createRequire(join(root, "package.json")).resolve("tsx")).href;

it("working-memory.ts: merged updates from three threads, an invalid patch refused, the profile in the prompt", async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", tsx, join(root, "examples", "working-memory.ts")],
    {
      cwd: root,
      timeout: 90_000,
    },
  );
  expect(stdout).toContain(
    'profile: {"name":"Ada","preferences":{"language":"TypeScript","theme":"dark"},"goals":["learn agentcore"]}',
  );
  expect(stdout).toContain("refused: The working memory patch is invalid, nothing was written: set.preferences.theme");
  const block = stdout.slice(stdout.indexOf("<working_memory>"));
  expect(block).toContain('- "preferences.theme": "dark"');
  expect(block).not.toContain('"goals"');
}, 120_000);
