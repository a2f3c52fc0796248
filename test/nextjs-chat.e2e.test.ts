// End to end: build the Next.js example, start it on loopback with the scripted model, and
// drive Debian's Chromium through playwright-core. Two messages, streamed answers, a reload
// that brings the history back from the store, and a fact from turn one used in turn three.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureFreshBuild } from "./helpers/ensure-build";
import { chromium, type Browser, type Page } from "playwright-core";
import { servicesRequired, skipMessage } from "./helpers/services";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const app = join(root, "examples", "nextjs-chat");
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(chromiumPath);
if (!available && servicesRequired) throw new Error(`Chromium is required for the end-to-end test but ${chromiumPath} does not exist (apt-get install -y chromium).`);
if (!available) skipMessage("the Next.js browser test", `no Chromium at ${chromiumPath}`);

// vitest sets NODE_ENV=test; Next.js must build and run as production.
const storePath = join(mkdtempSync(join(tmpdir(), "agentcore-nextjs-chat-")), "sessions.json");
afterAll(() => rmSync(dirname(storePath), { recursive: true, force: true }));
const environment = { ...process.env, CHAT_STORE_PATH: storePath, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" };
let server: ChildProcess | undefined;
let browser: Browser | undefined;
let baseURL = "";

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

async function waitForServer(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 250));
  }
  throw new Error(`the example app did not answer at ${url} within ${timeoutMs} ms`);
}

async function send(page: Page, text: string, expected: RegExp): Promise<string> {
  const before = await page.locator('li[data-role="assistant"]').count();
  await page.fill("#prompt", text);
  await page.click("#send");
  const answer = page.locator('li[data-role="assistant"]').nth(before);
  await expect.poll(async () => (await answer.count()) > 0 && expected.test(await answer.innerText()), { timeout: 30_000 }).toBe(true);
  await page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });
  return answer.innerText();
}

describe.skipIf(!available)("examples/nextjs-chat in Chromium", () => {
  beforeAll(async () => {
    await ensureFreshBuild();
    const build = spawnSync(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), "build", app], { cwd: root, env: environment, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`next build failed:\n${build.stdout}\n${build.stderr}`);
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, [join(root, "node_modules", "next", "dist", "bin", "next"), "start", app, "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      env: environment,
      stdio: "ignore",
    });
    await waitForServer(`${baseURL}/api/chat`, 60_000);
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    server?.kill("SIGTERM");
  });

  it("streams answers, keeps history across a reload, and uses a fact from turn one in turn three", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(baseURL);
    await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    expect(await page.locator("#messages li").count()).toBe(0);

    const first = await send(page, "Remember that my favourite colour is teal.", /Got it, I will remember that\./);
    expect(first).toContain("remember_fact ✓");
    const second = await send(page, "What's the weather in Oslo?", /Here is the weather: .*21°C/);
    expect(second).toContain("get_weather ✓");

    await page.reload();
    await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    const restored = await page.locator("#messages li").allInnerTexts();
    expect(restored).toHaveLength(4);
    expect(restored[0]).toContain("Remember that my favourite colour is teal.");
    expect(restored[3]).toMatch(/Here is the weather: .*Oslo/);

    const third = await send(page, "What is my favourite colour?", /Your favourite colour is teal\./);
    expect(third).toBe("Assistant: Your favourite colour is teal.");

    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "nextjs-chat.png"), fullPage: true });

    // The conversation is on disk, in the file store's readable JSON (snapshot and journal).
    const onDisk = [storePath, `${storePath}.journal`].filter((path) => existsSync(path)).map((path) => readFileSync(path, "utf8")).join("\n");
    expect(onDisk).toContain("Remember that my favourite colour is teal.");

    // A second browser (another cookie, so another session) sees none of it.
    const stranger = await (await browser!.newContext()).newPage();
    await stranger.goto(baseURL);
    await stranger.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    expect(await stranger.locator("#messages li").count()).toBe(0);
  }, 120_000);
});
