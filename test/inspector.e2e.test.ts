// End to end: seed a file store with a realistic session recorded with `recordContext: true`
// (facts, a summary, recalled memories, a trimmed window, an image) and a hostile one, start the
// built `agentcore inspect` on it, and drive Debian's Chromium through playwright-core: the session
// list, a turn's context report (its budget bar adds up to the turn's tokens), the left-out list
// with reasons, the query box; a hostile session renders inert. Screenshots go to test-results/.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { z } from "zod";
import { Agent } from "../src/agent/agent";
import { FileMemoryStore } from "../src/stores/file/file-memory-store";
import { SummaryMemory } from "../src/strategies/summary-memory";
import { MockLanguageModel } from "../src/testing/mock-language-model";
import { tool } from "../src/tools/tool";
import type { RecallMemoryProvider } from "../src/providers/memory-provider";
import { ensureFreshBuild } from "./helpers/ensure-build";
import { servicesRequired, skipMessage } from "./helpers/services";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(chromiumPath);
if (!available && servicesRequired)
  throw new Error(`Chromium is required for the inspector test but ${chromiumPath} does not exist.`);
if (!available) skipMessage("the inspector browser test", `no Chromium at ${chromiumPath}`);

const work = mkdtempSync(join(tmpdir(), "agentcore-inspect-"));
const storePath = join(work, "sessions.json");
const providerPath = join(work, "recall-provider.mjs");
const SESSION = "support/ada-2026";
const HOSTILE = `<img src=x onerror=alert("id")> "quoted" & 🙂`;
let cli: ChildProcess | undefined;
let browser: Browser | undefined;
let pageUrl = "";

/** A self-contained recall provider (the CLI loads it with --provider; the agent uses it too). */
const PROVIDER_SOURCE = `
const memories = [
  { id: "mem-tea", content: "Ada drinks green tea every morning." },
  { id: "mem-lyon", content: "Ada lives in Lyon and cycles to work." },
  { id: "mem-cat", content: "Ada has a grey cat called Pixel." },
];
const words = (text) => new Set(String(text).toLowerCase().match(/[a-z]+/g) ?? []);
export default {
  type: "demo-recall",
  async read({ query = "", limit = 5 }) {
    const asked = words(query);
    return memories
      .map((memory) => {
        const own = words(memory.content);
        const shared = [...asked].filter((word) => own.has(word)).length;
        return { ...memory, score: Math.round((1000 * shared) / Math.max(1, asked.size)) / 1000 };
      })
      .filter((memory) => memory.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit);
  },
  async write() {},
};
`;

/** A 48×48 PNG (a blue square with a white cross), built by hand: signature, IHDR, IDAT, IEND. */
function png(): Uint8Array {
  const size = 48;
  const rows: number[] = [];
  for (let y = 0; y < size; y++) {
    rows.push(0);
    for (let x = 0; x < size; x++) {
      const cross = Math.abs(x - y) < 3 || Math.abs(x + y - size) < 3;
      rows.push(...(cross ? [255, 255, 255] : [29, 95, 191]));
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      chunk("IHDR", header),
      chunk("IDAT", deflateSync(Buffer.from(rows))),
      chunk("IEND", Buffer.alloc(0)),
    ]),
  );
}

/** Seven turns through a real Agent: a fact saved by a tool, an image, long answers that a summary and the budget trim. */
async function seed(): Promise<void> {
  const provider = (await import(pathToFileURL(providerPath).href)).default as RecallMemoryProvider;
  const store = new FileMemoryStore({ path: storePath });
  const model = new MockLanguageModel({
    responses: (call, index) => {
      if (!call.tools?.length) return { text: "Ada introduced herself, asked about tea and Lyon, and sent a photo." };
      const last = call.messages.at(-1)!;
      // The user's own words: the last text part (the recalled memories come before it).
      const asked =
        last.role !== "user"
          ? ""
          : typeof last.content === "string"
            ? last.content
            : (last.content.findLast((part) => part.type === "text")?.text ?? "");
      if (asked.startsWith("Hi, I'm Ada"))
        return {
          toolCalls: [{ id: `call-${index}`, name: "remember_fact", arguments: { key: "name", value: "Ada" } }],
        };
      if (asked.includes("weather"))
        return { toolCalls: [{ id: `call-${index}`, name: "get_weather", arguments: { city: "Lyon" } }] };
      return {
        text: `Answer ${index}: ${"Here is a detailed reply that goes on for a while. ".repeat(12)}`,
        usage: { inputTokens: 400 + index, outputTokens: 90 },
      };
    },
  });
  const agent = new Agent({
    name: "support-bot",
    model,
    systemPrompt: "You are a friendly support assistant.",
    memory: new SummaryMemory({ summarizeThreshold: 6, recentMessages: 4, maxTokens: 700 }),
    memoryStore: store,
    memoryProvider: provider,
    enableMemoryTools: true,
    recordContext: true,
    sessionId: SESSION,
    tools: {
      get_weather: tool({
        description: "The weather in a city",
        parameters: z.object({ city: z.string() }),
        execute: async ({ city }) => `Sunny in ${city}, 24 °C. ${"(station data) ".repeat(40)}`,
      }),
    },
  });
  await agent.run("Hi, I'm Ada. Please remember my name.");
  await agent.run({
    input: [
      { type: "text", text: "Here is a photo of my bike." },
      { type: "image", image: png(), mediaType: "image/png" },
    ],
  });
  await agent.run("What tea should I try this week?");
  await agent.run("Any cycling routes around Lyon?");
  await agent.run("What's the weather in Lyon today?");
  await agent.run("Can you remind me what we talked about?");
  await agent.run("And what do you know about my cat?");
  await store.appendMessages(HOSTILE, [
    {
      id: "h1",
      role: "user",
      content: `<script>alert(1)</script><img src=x onerror="alert(2)"> ${"A".repeat(1_000_000)}`,
      timestamp: Date.now(),
    },
  ]);
}

describe.skipIf(!available)("agentcore inspect in Chromium", () => {
  beforeAll(async () => {
    await ensureFreshBuild();
    writeFileSync(providerPath, PROVIDER_SOURCE);
    await seed();
    cli = spawn(
      process.execPath,
      [join(root, "dist", "cli", "index.js"), "inspect", "--store", `file:${storePath}`, "--provider", providerPath],
      { cwd: work, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
    );
    pageUrl = await new Promise<string>((resolveUrl, reject) => {
      let output = "";
      cli!.stdout!.on("data", (chunk) => {
        output += chunk;
        const match = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{32})/.exec(output);
        if (match) resolveUrl(match[1]!);
      });
      cli!.stderr!.on("data", (chunk) => (output += chunk));
      cli!.once("exit", (code) => reject(new Error(`agentcore inspect exited (${code}): ${output}`)));
    });
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-sync",
      ],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    if (cli && cli.exitCode === null && cli.signalCode === null) {
      const exited = new Promise((resolveExit) => cli!.once("exit", resolveExit));
      cli.kill("SIGTERM");
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses a request without the token", async () => {
    const origin = new URL(pageUrl).origin;
    expect((await fetch(`${origin}/`)).status).toBe(401);
    expect((await fetch(`${origin}/api/sessions`)).status).toBe(401);
    expect((await fetch(`${origin}/api/sessions?token=${"0".repeat(32)}`)).status).toBe(401);
  });

  it("lists the sessions, shows a turn's context report, what was left out and why, and the recall for a query", async () => {
    const context = await browser!.newContext({ viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const violations: string[] = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/.test(message.text())) violations.push(message.text());
    });
    await page.goto(pageUrl);
    // The token left the address bar for an HttpOnly cookie.
    expect(page.url()).not.toContain("token=");
    await page.waitForSelector("table.sessions tbody tr");
    expect(await page.locator(".count").innerText()).toMatch(/1–2 of 2 sessions/);
    const rows = page.locator("table.sessions tbody tr");
    expect(await rows.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(SESSION)]));
    await page.fill("#search", "support/");
    await expect.poll(() => rows.count()).toBe(1);
    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "inspector-sessions.png") });

    await page.click(`a.session-link:text("${SESSION}")`);
    await page.waitForSelector("ol.turns");
    // The image is shown from the stored bytes.
    const image = page.locator(".image img").first();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBe(48);
    // Tool calls beside their results.
    expect(await page.locator(".tool-call").count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator(".tool-call", { hasText: "get_weather" }).innerText()).toContain("Sunny in Lyon");
    // Facts per scope and the summary.
    expect(await page.locator("aside").innerText()).toMatch(/session:support\/ada-2026[\s\S]*name[\s\S]*Ada/);
    expect(await page.locator("aside .summary").count()).toBeGreaterThan(0);

    // The last turn's context report.
    const report = page.locator("details.report").last();
    await report.locator("summary").click();
    const bar = report.locator(".budget");
    const total = Number(await bar.getAttribute("data-total"));
    const segments = await bar.locator(".segment").evaluateAll((elements) =>
      elements.map((element) => ({
        part: element.getAttribute("data-part"),
        tokens: Number(element.getAttribute("data-tokens")),
        width: element.getBoundingClientRect().width,
      })),
    );
    expect(segments.map((segment) => segment.part)).toEqual(["system", "facts", "summary", "recalled", "window"]);
    expect(segments.reduce((sum, segment) => sum + segment.tokens, 0)).toBe(total);
    expect(await report.locator(".report-total").innerText()).toBe(total.toLocaleString("en-US"));
    const barWidth = await bar.evaluate((element) => element.clientWidth);
    expect(Math.abs(segments.reduce((sum, segment) => sum + segment.width, 0) - barWidth)).toBeLessThan(2);
    // What was left out, with the reasons.
    const reasons = await report
      .locator(".left-out li")
      .evaluateAll((items) => items.map((item) => item.getAttribute("data-reason")));
    expect(reasons.length).toBeGreaterThan(0);
    expect(reasons).toContain("summary");
    expect(await report.locator(".left-out").innerText()).toContain("covered by the summary");
    // The difference from the call before, and the recalled memories with their scores.
    expect(await report.locator(".diff").count()).toBe(1);
    expect(await report.locator(".recalled li").count()).toBeGreaterThan(0);
    await report.scrollIntoViewIfNeeded();
    await report.screenshot({ path: join(root, "test-results", "inspector-report.png") });
    await page.screenshot({ path: join(root, "test-results", "inspector-session.png"), fullPage: true });

    // The query box: what the provider would recall, with scores.
    await page.fill("#recall-query", "green tea");
    await page.click(".recall button");
    const results = page.locator(".recall-results li");
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    expect(await results.first().innerText()).toMatch(/^1\.000\s+Ada drinks green tea/);
    await page.locator("aside").screenshot({ path: join(root, "test-results", "inspector-recall.png") });
    expect(dialogs).toEqual([]);
    expect(violations).toEqual([]);
    await context.close();
  });

  it("renders a hostile session inert", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto(pageUrl);
    await page.waitForSelector("table.sessions tbody tr");
    await page.locator("a.session-link").filter({ hasText: "onerror" }).click();
    await page.waitForSelector(".message.role-user", { timeout: 60_000 });
    const text = await page.locator(".message.role-user .text").first().innerText();
    expect(text.startsWith('<script>alert(1)</script><img src=x onerror="alert(2)">')).toBe(true);
    expect(await page.locator(".message .note").first().innerText()).toMatch(/900,\d{3} more characters not shown/);
    expect(await page.locator(".message button.more").first().innerText()).toMatch(/^Show 9\d,\d{3} more characters$/);
    expect(await page.locator("h1.session-title code").innerText()).toBe(HOSTILE);
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.locator("main script").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
