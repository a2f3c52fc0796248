// Drives the built `agentcore memory` commands as a child process, as users run them: list, show,
// export and import between kinds of store, prune and clear.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { builtCli } from "./helpers/built-cli";

const cli = builtCli();
const agentcore = cli.agentcore;
/** The scratch directory the command runs in. */
let work: string;
beforeAll(() => {
  work = cli.directory();
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

  it("exports and imports the facts kept per user (docs/cli.md's migration example)", async () => {
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
