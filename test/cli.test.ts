// Drives the built `agentcore` command as a child process, as users run it.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";
import { FakeLlmServer } from "./servers/fake-llm-server";
import { openaiStream } from "./servers/wire-formats";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const bin = join(root, "dist", "cli", "index.js");
let work: string;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

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

describe("agentcore chat", () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await FakeLlmServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  it("keeps a conversation and the model's facts across two invocations of one session", async () => {
    const store = `file:${join(work, "chat.json")}`;
    const env = { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "test-key" };
    server.enqueue(
      openaiStream({ toolCalls: [{ id: "call_1", name: "remember_fact", arguments: { key: "name", value: "Ada" } }] }),
      openaiStream({ text: "Nice to meet you, Ada." }),
      openaiStream({ text: "Your name is Ada." }),
    );
    const first = await agentcore(
      ["chat", "--model", "openai/gpt-4o-mini", "--session", "s1", "--store", store, "--memory-tools"],
      {
        env,
        input: "My name is Ada. Remember it.\n/facts\n/exit\n",
      },
    );
    expect(first.stderr).toBe("");
    expect(first.code).toBe(0);
    expect(first.stdout).toContain("assistant> Nice to meet you, Ada.");
    expect(first.stdout).toMatch(/^name: Ada {2}\d{4}-\d\d-\d\d/m);

    const second = await agentcore(["chat", "--session", "s1", "--store", store, "--memory-tools"], {
      env,
      input: "What is my name?\n",
    });
    expect(second.code).toBe(0);
    expect(second.stdout).toContain("assistant> Your name is Ada.");
    expect(server.requests).toHaveLength(3);
    const last = server.requests[2]!.body as {
      model: string;
      messages: { role: string; content: unknown; tool_calls?: unknown[] }[];
    };
    expect(last.model).toBe("gpt-4o-mini");
    expect(last.messages[0]!.role).toBe("system");
    expect(String(last.messages[0]!.content)).toContain('"name": "Ada"');
    expect(last.messages.slice(1).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    expect(last.messages.at(-1)!.content).toBe("What is my name?");
  });

  it("says how to set up a provider when there is none, in one line, exit 2", async () => {
    const run = await agentcore(["chat"], { input: "hello\n" });
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("OPENAI_API_KEY");
    expect(run.stderr).toContain("OPENAI_BASE_URL");
    expect(run.stderr).toContain("--model mock");
  });

  it("runs offline with --model mock and says so", async () => {
    const run = await agentcore(["chat", "--model", "mock", "--store", "memory:"], { input: "hello there\n" });
    expect(run.code).toBe(0);
    expect(run.stdout.split("\n")[0]).toMatch(/offline scripted model/);
    expect(run.stdout).toContain("assistant> You said: hello there");
  });
});

describe("agentcore chat --attach", () => {
  let server: FakeLlmServer;
  beforeAll(async () => {
    server = await FakeLlmServer.start();
  });
  afterAll(async () => {
    await server.close();
  });

  // A 1×1 PNG with every byte value after its header, so a byte changed anywhere shows.
  const png = Buffer.concat([
    Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489", "hex"),
    Buffer.from(Array.from({ length: 256 }, (_, index) => index)),
  ]);
  const pdf = Buffer.from("%PDF-1.4\n1 0 obj << /Type /Page >> endobj\n%%EOF\n");

  it("sends images and PDFs as parts of the first message, and export / import keep them byte-identical", async () => {
    writeFileSync(join(work, "cat.png"), png);
    writeFileSync(join(work, "report.pdf"), pdf);
    const store = `file:${join(work, "attach.json")}`;
    server.enqueue(openaiStream({ text: "A cat and a report." }), openaiStream({ text: "Still a cat." }));
    const chat = await agentcore(
      [
        "chat",
        "--model",
        "openai/gpt-4o",
        "--session",
        "pics",
        "--store",
        store,
        "--attach",
        "cat.png",
        "--attach",
        "report.pdf",
      ],
      {
        env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: "test-key" },
        input: "What are these?\nAnd now?\n",
      },
    );
    expect(chat.stderr).toBe("");
    expect(chat.code).toBe(0);
    const first = server.requests[0]!.body.messages.at(-1);
    expect(first).toEqual({
      role: "user",
      content: [
        { type: "text", text: "What are these?" },
        { type: "image_url", image_url: { url: `data:image/png;base64,${png.toString("base64")}` } },
        {
          type: "file",
          file: { filename: "report.pdf", file_data: `data:application/pdf;base64,${pdf.toString("base64")}` },
        },
      ],
    });
    // The attachments went with the first message only.
    expect(server.requests[1]!.body.messages.at(-1)).toEqual({ role: "user", content: "And now?" });

    const exported = join(work, "attach.jsonl");
    expect((await agentcore(["memory", "export", "--store", store, "--out", exported])).code).toBe(0);
    const target = `sqlite:${join(work, "attach.db")}`;
    expect((await agentcore(["memory", "import", exported, "--store", target])).code).toBe(0);
    const again = await agentcore(["memory", "export", "--store", target, "--session", "pics"]);
    const messagesOf = (line: string) =>
      (JSON.parse(line) as { messages: { content: unknown }[] }).messages.map((message) => message.content);
    const [user] = messagesOf(again.stdout.trim());
    const [, image, file] = user as { image?: { $bytes: string }; data?: { $bytes: string } }[];
    expect(Buffer.from(image!.image!.$bytes, "base64").equals(png)).toBe(true);
    expect(Buffer.from(file!.data!.$bytes, "base64").equals(pdf)).toBe(true);
    expect(messagesOf(again.stdout.trim())).toEqual(messagesOf(readFileSync(exported, "utf8").trim()));
  });

  it("attaches with /attach for the next message, and says what is wrong with a bad file", async () => {
    writeFileSync(join(work, "notes.txt"), "plain text");
    const run = await agentcore(["chat", "--model", "mock", "--store", "memory:"], {
      input: "/attach nothing.png\n/attach notes.txt\n/attach cat.png\nLook\n/history\n",
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("error: /attach nothing.png: no such file");
    expect(run.stdout).toContain("error: /attach notes.txt: not an image (PNG, JPEG, GIF, WebP) or a PDF");
    expect(run.stdout).toContain("Attached cat.png; it goes with your next message.");
    expect(run.stdout).toContain("assistant> You said: Look");
    expect(run.stdout).toMatch(/user: Look\n\[image: image\/png\]/);
  });
});

describe("agentcore memory", () => {
  async function seed(store: string) {
    for (const [session, lines] of [
      ["alpha", "Remember that my colour is teal.\nhello\n"],
      ["beta", "first message\nsecond message ünïcödé 🧪\n"],
    ] as const) {
      const run = await agentcore(
        ["chat", "--model", "mock", "--session", session, "--store", store, "--memory-tools"],
        { input: lines },
      );
      expect(run.code).toBe(0);
    }
  }

  it("lists, shows and reads facts, for people and for programs", async () => {
    const store = `file:${join(work, "inspect.json")}`;
    await seed(store);
    const sessions = await agentcore(["memory", "sessions", "--store", store, "--json"]);
    expect((JSON.parse(sessions.stdout) as { sessionId: string }[]).map((entry) => entry.sessionId).sort()).toEqual([
      "alpha",
      "beta",
    ]);
    const table = await agentcore(["memory", "sessions", "--store", store]);
    expect(table.stdout.split("\n")[0]).toMatch(/^session\s+messages\s+created\s+last used\s+agent$/);
    const show = await agentcore(["memory", "show", "beta", "--store", store, "--json"]);
    expect((JSON.parse(show.stdout) as { content: string }[]).map((message) => message.content)).toEqual([
      "first message",
      "You said: first message",
      "second message ünïcödé 🧪",
      "You said: second message ünïcödé 🧪",
    ]);
    const facts = await agentcore(["memory", "facts", "alpha", "--store", store, "--json"]);
    expect(JSON.parse(facts.stdout)).toMatchObject([{ key: "colour", value: "teal" }]);
  });

  it("exports then imports into another kind of store with deep-equal sessions, idempotently", async () => {
    const source = `file:${join(work, "export-source.json")}`;
    const target = `sqlite:${join(work, "export-target.db")}`;
    await seed(source);
    const exportFile = join(work, "sessions.jsonl");
    const exported = await agentcore(["memory", "export", "--store", source, "--out", exportFile]);
    expect(exported.code).toBe(0);
    const lines = readFileSync(exportFile, "utf8").trim().split("\n");
    expect(lines).toHaveLength(2);

    const imported = await agentcore(["memory", "import", exportFile, "--store", target]);
    expect(imported.stdout).toContain("Imported 2 session(s), 10 new message(s).");
    const again = await agentcore(["memory", "import", exportFile, "--store", target]);
    expect(again.stdout).toContain("Imported 2 session(s), 0 new message(s).");

    const roundTrip = await agentcore(["memory", "export", "--store", target]);
    const comparable = (text: string) =>
      text
        .trim()
        .split("\n")
        .map((line) => {
          const { metadata: _metadata, ...record } = JSON.parse(line) as Record<string, unknown>;
          return record;
        })
        .sort((a, b) => String(a.sessionId).localeCompare(String(b.sessionId)));
    expect(comparable(roundTrip.stdout)).toEqual(comparable(lines.join("\n")));
  });

  it("exports and imports the facts kept per user (README's migration example)", async () => {
    for (const [scheme, name] of [
      ["file", "user-facts.json"],
      ["sqlite", "user-facts.db"],
    ] as const) {
      const source = `${scheme}:${join(work, `source-${name}`)}`;
      const target = `sqlite:${join(work, `target-${name}.db`)}`;
      const chat = await agentcore(
        ["chat", "--model", "mock", "--session", "alpha", "--user", "bob", "--store", source, "--memory-tools"],
        {
          input: "Remember that my colour is teal.\n",
        },
      );
      expect(chat.code).toBe(0);
      const readFacts = async (store: string) =>
        JSON.parse(
          (await agentcore(["memory", "facts", "alpha", "--user", "bob", "--store", store, "--json"])).stdout,
        ) as unknown[];
      expect(await readFacts(source)).toMatchObject([{ key: "colour", value: "teal" }]);
      const exportFile = join(work, `user-facts-${scheme}.jsonl`);
      expect((await agentcore(["memory", "export", "--store", source, "--out", exportFile])).code).toBe(0);
      const imported = await agentcore(["memory", "import", exportFile, "--store", target]);
      expect(imported.stdout).toContain("Imported 1 session(s), 4 new message(s), the facts of 1 other scope(s).");
      expect(await readFacts(target)).toMatchObject([{ key: "colour", value: "teal" }]);
    }
  });

  it("imports messages without ids once, however often the file is imported", async () => {
    const file = join(work, "no-ids.jsonl");
    const messages = [
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi" },
    ];
    writeFileSync(
      file,
      `${JSON.stringify({ kind: "agentcore.session", version: 1, sessionId: "s", messages, facts: [] })}\n`,
    );
    const store = `sqlite:${join(work, "no-ids.db")}`;
    expect((await agentcore(["memory", "import", file, "--store", store])).stdout).toContain(
      "Imported 1 session(s), 4 new message(s).",
    );
    expect((await agentcore(["memory", "import", file, "--store", store])).stdout).toContain(
      "Imported 1 session(s), 0 new message(s).",
    );
    const shown = JSON.parse((await agentcore(["memory", "show", "s", "--store", store, "--json"])).stdout) as {
      id: string;
      content: string;
    }[];
    expect(shown.map((message) => message.content)).toEqual(["hello", "hi", "hello", "hi"]);
    expect(new Set(shown.map((message) => message.id)).size).toBe(4);
  });

  it("imports sessions named like Object.prototype members into a file store, and they survive its compaction", async () => {
    const names = ["__proto__", "constructor", "hasOwnProperty"];
    const file = join(work, "prototype-names.jsonl");
    const big = "x".repeat(1_100_000); // past the 1 MiB journal threshold: the import compacts
    const record = (sessionId: string, content: string) =>
      JSON.stringify({
        kind: "agentcore.session",
        version: 1,
        sessionId,
        messages: [{ id: `m-${sessionId}`, role: "user", content, timestamp: 1 }],
        facts: [],
      });
    writeFileSync(file, `${[...names.map((name) => record(name, `hello ${name}`)), record("big", big)].join("\n")}\n`);
    const store = `file:${join(work, "prototype-names.json")}`;
    expect((await agentcore(["memory", "import", file, "--store", store])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(work, "prototype-names.json"), "utf8")).generation).toBeGreaterThan(0);
    const exported = await agentcore(["memory", "export", "--store", store]);
    const sessions = exported.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { sessionId: string; messages: { content: string }[] });
    expect(sessions.map((session) => session.sessionId).sort()).toEqual([...names, "big"].sort());
    for (const name of names)
      expect(sessions.find((session) => session.sessionId === name)?.messages[0]?.content).toBe(`hello ${name}`);
  });

  it("refuses a bad export line with the line and field named", async () => {
    const file = join(work, "bad.jsonl");
    execFileSync("sh", [
      "-c",
      `printf '%s\\n' '{"kind":"agentcore.session","version":1,"sessionId":"x","messages":[{"role":"wizard"}]}' > ${file}`,
    ]);
    const run = await agentcore(["memory", "import", file, "--store", "memory:"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 1: .*role/);
  });

  it("prunes exactly the stale sessions", async () => {
    const store = `sqlite:${join(work, "prune.db")}`;
    const chat = (session: string) =>
      agentcore(["chat", "--model", "mock", "--session", session, "--store", store], { input: "hi\n" });
    await chat("old-1");
    await chat("old-2");
    // Wide margins on both sides: under load a CLI start can take seconds, and "fresh" must still be
    // younger than the cut-off when prune reads the clock (the old ones are 10 s old at least).
    await new Promise((resolveWait) => setTimeout(resolveWait, 10_000));
    await chat("fresh");
    const pruned = await agentcore(["memory", "prune", "--older-than", "5s", "--store", store, "--json"]);
    expect(pruned.code).toBe(0);
    expect((JSON.parse(pruned.stdout) as { pruned: string[] }).pruned.sort()).toEqual(["old-1", "old-2"]);
    const left = await agentcore(["memory", "sessions", "--store", store, "--json"]);
    expect((JSON.parse(left.stdout) as { sessionId: string }[]).map((entry) => entry.sessionId)).toEqual(["fresh"]);
  }, 60_000);

  it("clears a session's messages and facts", async () => {
    const store = `file:${join(work, "clear.json")}`;
    await seed(store);
    const cleared = await agentcore(["memory", "clear", "alpha", "--store", store]);
    expect(cleared.stdout).toContain("Cleared session alpha: 6 message(s), 1 fact(s).");
    const facts = await agentcore(["memory", "facts", "alpha", "--store", store, "--json"]);
    expect(JSON.parse(facts.stdout)).toEqual([]);
  });
});

describe("agentcore errors", () => {
  beforeAll(() => writeFileSync(join(work, "notes.txt"), "plain text"));
  it.each([
    [["chat", "--bogus"], /unknown option '--bogus'/],
    [["memory", "prune"], /required option '--older-than <age>'/],
    [["memory", "prune", "--older-than", "soon", "--store", "memory:"], /--older-than soon: expected a duration/],
    [["memory", "sessions", "--store", "nope:x"], /unknown kind of store/],
    [
      ["memory", "sessions", "--store", "redis://127.0.0.1:1"],
      /cannot reach the Redis store at redis:\/\/127\.0\.0\.1:1.*ECONNREFUSED/,
    ],
    [["memory", "sessions", "--store", "postgres://nobody@127.0.0.1:1/none"], /cannot reach the PostgreSQL store/],
    [["chat", "--model", "mock", "--memory", "huge"], /argument 'huge' is invalid|--memory huge/],
    [["memory", "show", "bad\u0001id", "--store", "memory:"], /control characters/],
    [["chat", "--model", "mock", "--attach", "missing.png"], /--attach missing\.png: no such file/],
    [
      ["chat", "--model", "mock", "--attach", "notes.txt"],
      /--attach notes\.txt: not an image \(PNG, JPEG, GIF, WebP\) or a PDF/,
    ],
    [["chat", "--model", "mock", "--attach", "."], /--attach \.: not a file/],
  ])("agentcore %j: one clear line, exit 2", async (args, expected) => {
    const run = await agentcore(args as string[]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toMatch(expected);
  });
});
