// Every TypeScript block of README.md and docs/*.md, pasted into a fresh app that installed the
// packed tarball (test/helpers/packed-app.ts): all type-checked at once with `tsc --strict`
// (skipLibCheck off for agentcore's own declarations), then each block not marked partial run
// with tsx. Blocks marked <!-- partial --> are fragments: the harness gives them the agentcore
// names they use without importing, and the names of test/docs-blocks/context.d.ts ("your model",
// "your auth"), and only type-checks them (test/helpers/markdown-blocks.ts). Models answer from a
// loopback server that speaks every provider's wire format (OPENAI_BASE_URL, ANTHROPIC_BASE_URL);
// Redis and PostgreSQL are the local servers (a database of its own, dropped at the end).
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredNames, type MarkdownBlock, typescriptBlocks } from "./helpers/markdown-blocks";
import { packedApp } from "./helpers/packed-app";
import { postgresUrl, redisUrl, serviceAvailable } from "./helpers/services";
import { anyModelAnswer } from "./servers/any-model-answer";
import { FakeLlmServer } from "./servers/fake-llm-server";

const run = promisify(execFile);
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const documents = ["README.md", ...readdirSync(join(root, "docs")).map((name) => `docs/${name}`)]
  .filter((name) => name.endsWith(".md"))
  .sort();
/** The package's entry points, whose exports a fragment may use without importing them. */
const entries: Record<string, string> = {
  agentcore: "index.d.ts",
  "agentcore/testing": "testing/index.d.ts",
  "agentcore/redis": "redis/index.d.ts",
  "agentcore/postgres": "postgres/index.d.ts",
  "agentcore/sqlite": "sqlite/index.d.ts",
  "agentcore/mcp": "mcp/index.d.ts",
  "agentcore/upstash": "upstash/index.d.ts",
  "agentcore/semantic": "semantic/index.d.ts",
  "agentcore/inspector": "inspector/index.d.ts",
};

interface Block extends MarkdownBlock {
  name: string;
}
const blocks: Block[] = documents.flatMap((document) =>
  typescriptBlocks(join(root, document)).map((block) => ({
    ...block,
    document,
    name: (block.file ?? `${document.replace(/[^\w]+/g, "_")}_${block.line}.ts`).replace(/\.ts$/, ""),
  })),
);

let app: string;
let blockDirectory: string;
let diagnostics: string[] = [];
let server: FakeLlmServer;
let database: string | undefined;

beforeAll(async () => {
  app = (await packedApp()).dir;
  server = await FakeLlmServer.start({ fallback: anyModelAnswer("Hello from the loopback model.") });
  blockDirectory = join(app, `blocks-${process.pid}`);
  rmSync(blockDirectory, { recursive: true, force: true });
  mkdirSync(blockDirectory);
  const exported = Object.entries(entries).map(([specifier, file]) => ({
    specifier,
    names: exportedNames(readFileSync(join(app, "node_modules", "agentcore", "dist", file), "utf8")),
  }));
  for (const block of blocks) writeFileSync(join(blockDirectory, `${block.name}.ts`), source(block, exported));
  copyFileSync(join(root, "test", "docs-blocks", "context.d.ts"), join(blockDirectory, "context.d.ts"));
  writeFileSync(
    join(blockDirectory, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "preserve",
        moduleResolution: "bundler",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: ["node"],
        strict: true,
        skipLibCheck: false,
        noEmit: true,
      },
      include: ["*.ts"],
    }),
  );
  const tsc = join(app, "node_modules", "typescript", "bin", "tsc");
  const output = await run(process.execPath, [tsc, "-p", blockDirectory, "--pretty", "false"], {
    cwd: blockDirectory,
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    (result) => result.stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  // Errors of our blocks and of agentcore's declarations; a third-party package's own .d.ts is not ours to judge.
  diagnostics = output
    .split(/\n(?=\S)/)
    .filter((line) => /error TS\d+/.test(line))
    .filter((line) => !line.includes("node_modules/") || line.includes("node_modules/agentcore/"));
  if (await serviceAvailable("postgres")) {
    database = `agentcore_docs_${process.pid}_${Date.now()}`;
    await adminQuery(`CREATE DATABASE ${database}`);
  }
}, 600_000);

afterAll(async () => {
  await server?.close();
  if (blockDirectory) rmSync(blockDirectory, { recursive: true, force: true });
  if (database) await adminQuery(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

describe("README.md and docs/*.md, against the packed package", () => {
  it("finds the blocks (every document with code has some)", () => {
    // README.md is a front door (a first agent, a route); the chapters are docs/ pages.
    expect(blocks.filter((block) => block.document === "README.md").length).toBeGreaterThanOrEqual(2);
    expect(blocks.filter((block) => block.document.startsWith("docs/")).length).toBeGreaterThan(50);
    expect(blocks.filter((block) => !block.partial).length).toBeGreaterThan(10);
    expect(new Set(blocks.map((block) => block.name)).size).toBe(blocks.length);
  });

  it.each(blocks.map((block) => [`${block.document}:${block.line}`, block] as const))(
    "%s type-checks (tsc --strict)",
    (_, block) => {
      expect(diagnostics.filter((line) => line.startsWith(`${block.name}.ts(`))).toEqual([]);
    },
  );

  it("leaves no type error anywhere else (agentcore's declarations, the context file)", () => {
    const ours = new Set(blocks.map((block) => `${block.name}.ts(`));
    expect(diagnostics.filter((line) => ![...ours].some((prefix) => line.startsWith(prefix)))).toEqual([]);
  });

  const runnable = blocks.filter((block) => !block.partial);
  it.each(runnable.map((block) => [`${block.document}:${block.line}`, block] as const))(
    "%s runs as written",
    { timeout: 120_000 },
    async (_, block) => {
      const scratch = join(blockDirectory, "run", block.name);
      mkdirSync(scratch, { recursive: true });
      const result = await runBlock(block, scratch);
      expect(result.error, result.output).toBeUndefined();
    },
  );
});

/** The block as a module; a fragment gets the agentcore names it uses and does not declare. */
function source(block: Block, exported: { specifier: string; names: Set<string> }[]): string {
  const lines = [`// ${block.document}:${block.line}${block.partial ? " (partial: type-checked only)" : ""}`];
  if (block.partial) {
    const own = declaredNames(block.code);
    const taken = new Set<string>();
    for (const { specifier, names } of exported) {
      const used = [...names].filter(
        (name) => !own.has(name) && !taken.has(name) && new RegExp(`(?<![\\w$.])${name}(?![\\w$])`).test(block.code),
      );
      for (const name of used) taken.add(name);
      if (used.length) lines.push(`import { ${used.join(", ")} } from "${specifier}";`);
    }
  }
  return `${lines.join("\n")}\n${block.code}\nexport {};\n`;
}

/** The names a bundled declaration file exports (`export { A, type B, C as D };`, also re-exported `from` a chunk). */
function exportedNames(declarations: string): Set<string> {
  const names = new Set<string>();
  for (const match of declarations.matchAll(/^export\s*(?:type\s*)?\{([^}]*)\}(?:\s*from\s*["'][^"']+["'])?;?$/gm)) {
    for (const specifier of match[1]!.split(",")) {
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

async function runBlock(block: Block, cwd: string): Promise<{ error: unknown; output: string }> {
  const runner = join(blockDirectory, "run-block.mjs");
  writeFileSync(
    runner,
    [
      'import { pathToFileURL } from "node:url";',
      'process.on("unhandledRejection", (error) => { console.error(error); process.exit(1); });',
      "await import(pathToFileURL(process.argv[2]).href);",
      // Clients a block leaves open (a Redis connection) must not keep it running.
      "process.exit(process.exitCode ?? 0);",
    ].join("\n"),
  );
  const loader = join(app, "node_modules", "tsx", "dist", "loader.mjs");
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    OPENAI_API_KEY: "sk-docs-test",
    OPENAI_BASE_URL: `${server.url}/v1`,
    ANTHROPIC_API_KEY: "sk-ant-docs-test",
    ANTHROPIC_BASE_URL: server.url,
    MEM0_API_KEY: "m0-docs-test",
    REDIS_URL: redisUrl,
    ...(database ? { DATABASE_URL: withDatabase(postgresUrl, database) } : {}),
    UPSTASH_REDIS_REST_URL: "http://127.0.0.1:9",
    UPSTASH_REDIS_REST_TOKEN: "docs-test",
  };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", loader, runner, join(blockDirectory, `${block.name}.ts`)],
      { cwd, env, timeout: 100_000, maxBuffer: 16 * 1024 * 1024 },
    );
    return { error: undefined, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message?: string };
    return { error: failed.message ?? error, output: `${failed.stdout ?? ""}\n${failed.stderr ?? ""}` };
  }
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
