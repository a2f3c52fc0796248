// End to end: seed a file store with a realistic session recorded with `recordContext: true`
// (facts, a summary, recalled memories, a trimmed window, an image) and a hostile one, start the
// built `agentcore inspect` on it (twice: two inspectors side by side), and drive Debian's Chromium
// through playwright-core: the session list, a turn's context report (its budget bar adds up to the
// turn's tokens), the left-out list with reasons, the query box; a hostile session renders inert;
// the token (in the URL's fragment, then the tab's sessionStorage) never reaches another port.
// Screenshots go to test-results/.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, request as httpRequest, type Server } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { ensureFreshBuild } from "./helpers/ensure-build";
import {
  HOSTILE,
  HOSTILE_SVG,
  LONG_SESSION,
  LONG_SESSION_MESSAGES,
  SESSION,
  seedInspectorStore,
} from "./helpers/inspector-sessions";
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
const clis: ChildProcess[] = [];
let browser: Browser | undefined;
/** The URL the first inspector printed, and a second one's (started with --allow-delete). */
let pageUrl = "";
let secondUrl = "";

/** Starts the built `agentcore inspect` on the seeded store; resolves with the URL it prints. */
function startInspector(extra: string[] = []): Promise<string> {
  const cli = spawn(
    process.execPath,
    [
      join(root, "dist", "cli", "index.js"),
      "inspect",
      "--store",
      `file:${storePath}`,
      "--provider",
      providerPath,
      ...extra,
    ],
    { cwd: work, env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  clis.push(cli);
  return new Promise<string>((resolveUrl, reject) => {
    let output = "";
    cli.stdout!.on("data", (chunk) => {
      output += chunk;
      const match = /Open (http:\/\/127\.0\.0\.1:\d+\/#token=[0-9a-f]{32})\n/.exec(output);
      if (match) resolveUrl(match[1]!);
    });
    cli.stderr!.on("data", (chunk) => (output += chunk));
    cli.once("exit", (code) => reject(new Error(`agentcore inspect exited (${code}): ${output}`)));
  });
}

/** A raw HTTP request (fetch would not let a test choose the Host header). */
function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolveResponse, reject) => {
    const request = httpRequest(url, { method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk) => (body += chunk));
      response.on("end", () => resolveResponse({ status: response.statusCode!, body }));
    });
    request.once("error", reject);
    request.end();
  });
}

describe.skipIf(!available)("agentcore inspect in Chromium", () => {
  beforeAll(async () => {
    await ensureFreshBuild();
    await seedInspectorStore(storePath, providerPath);
    pageUrl = await startInspector();
    secondUrl = await startInspector(["--allow-delete"]);
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
    for (const cli of clis) {
      if (cli.exitCode !== null || cli.signalCode !== null) continue;
      const exited = new Promise((resolveExit) => cli.once("exit", resolveExit));
      cli.kill("SIGTERM");
      await exited;
    }
    rmSync(work, { recursive: true, force: true });
  });

  it("refuses every endpoint without the token, a malformed credential with 401, another Host with 421", async () => {
    for (const url of [pageUrl, secondUrl]) {
      const origin = new URL(url).origin;
      const token = new URL(url).hash.slice("#token=".length);
      const session = encodeURIComponent(SESSION);
      const endpoints = [
        { method: "GET", path: "/api/sessions" },
        { method: "GET", path: `/api/session?id=${session}` },
        { method: "GET", path: `/api/part?session=${session}&message=2&part=1` },
        { method: "GET", path: `/api/recall?session=${session}&q=tea` },
        { method: "POST", path: `/api/delete?id=${session}` },
      ];
      for (const { method, path } of endpoints) {
        const deleting: Record<string, string> = method === "POST" ? { "x-agentcore-inspector": "delete" } : {};
        const credentials: Array<Record<string, string>> = [
          {},
          { "x-inspector-token": "0".repeat(32) },
          { cookie: `agentcore_inspector=${token}` },
          { cookie: "agentcore_inspector=%E0%A4%A" },
        ];
        for (const headers of credentials) {
          const response = await rawRequest(`${origin}${path}`, { method, headers: { ...deleting, ...headers } });
          expect(response.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401);
        }
        const inQuery = await rawRequest(`${origin}${path}${path.includes("?") ? "&" : "?"}token=${token}`, {
          method,
          headers: deleting,
        });
        expect(inQuery.status, `${path} with ?token=`).toBe(401);
        // The right token with another host name: a DNS-rebinding page is refused before anything.
        const rebound = await rawRequest(`${origin}${path}`, {
          method,
          headers: { ...deleting, "x-inspector-token": token, host: `attacker.example:${new URL(url).port}` },
        });
        expect(rebound.status, `${path} with another Host`).toBe(421);
      }
      const port = new URL(url).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
        expect(
          (await rawRequest(`${origin}/api/sessions`, { headers: { host, "x-inspector-token": token } })).status,
        ).toBe(200);
    }
    // Nothing was deleted by the tokenless POSTs to the inspector that allows deleting.
    const token = new URL(secondUrl).hash.slice("#token=".length);
    const stored = await rawRequest(`${new URL(secondUrl).origin}/api/session?id=${encodeURIComponent(SESSION)}`, {
      headers: { "x-inspector-token": token },
    });
    expect(JSON.parse(stored.body).messages.length).toBeGreaterThan(10);
  });

  it("sends the token to no other port: no cookie, and two inspectors side by side both work", async () => {
    const seen: IncomingHttpHeaders[] = [];
    const other: Server = createServer((request, response) => {
      seen.push(request.headers);
      response.writeHead(200, { "content-type": "text/html" }).end("<p>another local server</p>");
    });
    await new Promise<void>((resolveListen) => other.listen(0, "127.0.0.1", resolveListen));
    const otherUrl = `http://127.0.0.1:${(other.address() as { port: number }).port}/`;
    const context = await browser!.newContext();
    try {
      const first = await context.newPage();
      await first.goto(pageUrl);
      await first.waitForSelector("table.sessions tbody tr");
      // The fragment left the address bar (and the history) for the tab's sessionStorage.
      expect(first.url()).not.toContain("token");
      const second = await context.newPage();
      await second.goto(secondUrl);
      await second.waitForSelector("table.sessions tbody tr");
      // A second inspector logs the first out of nothing: both still read after each other's start.
      await first.reload();
      await first.waitForSelector("table.sessions tbody tr");
      await second.reload();
      await second.waitForSelector("table.sessions tbody tr");
      expect(await context.cookies()).toEqual([]);
      // Another server on the same host, visited from the inspector's tab, gets nothing.
      await first.goto(otherUrl);
      await first.waitForSelector("text=another local server");
      expect(seen.length).toBeGreaterThan(0);
      for (const headers of seen) {
        expect(headers.cookie).toBeUndefined();
        expect(headers["x-inspector-token"]).toBeUndefined();
        expect(JSON.stringify(headers)).not.toContain(new URL(pageUrl).hash.slice("#token=".length));
      }
    } finally {
      await context.close();
      await new Promise((resolveClose) => other.close(resolveClose));
    }
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
    // The token left the address bar for the tab's sessionStorage.
    expect(page.url()).not.toContain("token=");
    await page.waitForSelector("table.sessions tbody tr");
    expect(await page.locator(".count").innerText()).toMatch(/1–3 of 3 sessions/);
    const rows = page.locator("table.sessions tbody tr");
    expect(await rows.allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(SESSION)]));
    await page.fill("#search", "support/");
    await expect.poll(() => rows.count()).toBe(1);
    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "inspector-sessions.png") });

    await page.click(`a.session-link:text("${SESSION}")`);
    await page.waitForSelector("ol.turns");
    // The image is shown from the stored bytes, fetched with the token header into a blob: URL.
    const image = page.locator(".image img").first();
    await image.waitFor();
    expect(await image.getAttribute("src")).toMatch(/^blob:/);
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

  it("shows a long session's newest messages first, and the earlier ones on demand", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(pageUrl);
    await page.click(`a.session-link:text("${LONG_SESSION}")`);
    await page.waitForSelector("ol.turns");
    const messages = page.locator(".message");
    expect(await messages.count()).toBe(200);
    expect(await page.locator(".meta").first().textContent()).toContain(`${LONG_SESSION_MESSAGES} messages`);
    expect(await messages.last().locator(".text").textContent()).toBe(`Message number ${LONG_SESSION_MESSAGES - 1}.`);
    const earlier = page.locator("button", { hasText: "Load earlier messages" });
    await earlier.click();
    await expect.poll(() => messages.count()).toBe(400);
    await earlier.click();
    await expect.poll(() => messages.count()).toBe(LONG_SESSION_MESSAGES);
    expect(await earlier.count()).toBe(0);
    const texts = await page.locator(".message .text").allTextContents();
    expect(texts).toEqual(Array.from({ length: LONG_SESSION_MESSAGES }, (_, index) => `Message number ${index}.`));
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
    expect(await page.locator("main script").count()).toBe(0);
    // The SVG stored as an image part: offered as a download of opaque bytes, never shown.
    const svg = page.locator("button.download", { hasText: "image/svg+xml" });
    const [download] = await Promise.all([page.waitForEvent("download"), svg.click()]);
    const saved = await download.path();
    expect(readFileSync(saved, "utf8")).toBe(HOSTILE_SVG);
    expect(await page.locator("main img").count()).toBe(0);
    expect(dialogs).toEqual([]);
    await context.close();
  });
});
