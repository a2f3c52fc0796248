// Runs the built `agentcore` command as a child process, as users run it, in a scratch directory of
// the test file's own: dist/ rebuilt first when stale (beforeAll), the directory removed (afterAll).
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { ensureFreshBuild } from "./ensure-build";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "dist", "cli", "index.js");

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export interface BuiltCli {
  /** Runs `agentcore <args>` in the scratch directory, with no provider keys and NO_COLOR set. */
  agentcore(args: string[], options?: { input?: string; env?: Record<string, string | undefined> }): Promise<Run>;
  /** The scratch directory (once the file's tests have started). */
  directory(): string;
}

export function builtCli(): BuiltCli {
  let work: string;

  function agentcore(
    args: string[],
    options: { input?: string; env?: Record<string, string | undefined> } = {},
  ): Promise<Run> {
    return new Promise((resolveRun, reject) => {
      const env: Record<string, string | undefined> = {
        ...process.env,
        OPENAI_API_KEY: undefined,
        OPENAI_BASE_URL: undefined,
        ANTHROPIC_API_KEY: undefined,
        NO_COLOR: "1",
        ...options.env,
      };
      for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
      const child = spawn(process.execPath, [bin, ...args], { cwd: work, env: env as NodeJS.ProcessEnv });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolveRun({ code: code ?? -1, stdout, stderr }));
      child.stdin.end(options.input ?? "");
    });
  }

  beforeAll(async () => {
    await ensureFreshBuild();
    work = mkdtempSync(join(tmpdir(), "agentcore-cli-"));
  }, 240_000);

  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
  });

  return { agentcore, directory: () => work };
}
