// Drives the built `agentcore` command as a child process, as users run it: chat (with attachments)
// and the errors every command reports in one line (the memory commands: cli-memory.test.ts).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeLlmServer } from "./servers/fake-llm-server";
import { openaiStream } from "./servers/wire-formats";
import { builtCli } from "./helpers/built-cli";

const cli = builtCli();
const agentcore = cli.agentcore;
/** The scratch directory the command runs in. */
let work: string;
beforeAll(() => {
  work = cli.directory();
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
