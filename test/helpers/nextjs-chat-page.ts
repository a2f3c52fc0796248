// Driving the Next.js example's chat page in test/nextjs-chat.e2e.test.ts: a free loopback port,
// waiting for the app to answer, sending a message and reading the answer, the conversation both
// routes hold, the session id in the page's cookie, and the browser.
import { createServer } from "node:net";
import { expect } from "vitest";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

/** Debian's Chromium, headless, with nothing that reaches the network on its own. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export async function waitForServer(url: string, timeoutMs: number): Promise<void> {
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

/** The assistant messages' texts (their text parts: not the folded reasoning nor the tool cards). */
export const answerText = (answer: ReturnType<Page["locator"]>) =>
  answer
    .locator('[data-part="text"]')
    .allInnerTexts()
    .then((texts) => texts.join(" "));

export async function send(page: Page, text: string, expected: RegExp): Promise<ReturnType<Page["locator"]>> {
  const before = await page.locator('li[data-role="assistant"]').count();
  await page.fill("#prompt", text);
  await page.click("#send");
  const answer = page.locator('li[data-role="assistant"]').nth(before);
  await expect
    .poll(async () => (await answer.count()) > 0 && expected.test(await answerText(answer)), { timeout: 30_000 })
    .toBe(true);
  await page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });
  return answer;
}

/** The conversation both routes hold: a fact, a tool call, a reload from the store, the fact used. */
export async function converse(page: Page): Promise<void> {
  expect(await page.locator("#messages li").count()).toBe(0);
  const first = await send(page, "Remember that my favourite colour is teal.", /Got it, I will remember that\./);
  // The tool call is a card: its name, its input as fields, its state.
  const card = first.locator('[data-tool="remember_fact"]');
  expect(await card.getAttribute("data-state")).toBe("output-available");
  expect(await card.locator('[data-fields="input"]').textContent()).toMatch(/key\s*favourite colour\s*value\s*teal/);
  // Each step's reasoning is there, folded until opened.
  const reasoning = first.locator('details[data-part="reasoning"]');
  expect(await reasoning.count()).toBe(2);
  expect(await reasoning.first().getAttribute("open")).toBeNull();
  expect(await reasoning.first().locator("p").isVisible()).toBe(false);
  await reasoning.first().locator("summary").click();
  expect(await reasoning.first().locator("p").textContent()).toContain("so I save it with remember_fact");

  const second = await send(page, "What's the weather in Oslo?", /Here is the weather: .*21°C/);
  expect(await second.locator('[data-tool="get_weather"] [data-fields="output"]').textContent()).toMatch(
    /temperature\s*21°C/,
  );

  await page.reload();
  await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
  const restored = await page.locator("#messages > li").allInnerTexts();
  expect(restored).toHaveLength(4);
  expect(restored[0]).toContain("Remember that my favourite colour is teal.");
  expect(restored[3]).toMatch(/Here is the weather: .*Oslo/);
  // The reasoning and the tool cards come back from the store too.
  const answers = page.locator('li[data-role="assistant"]');
  expect(await answers.nth(0).locator('details[data-part="reasoning"]').count()).toBe(2);
  expect(await answers.nth(1).locator('[data-tool="get_weather"]').getAttribute("data-state")).toBe("output-available");

  const third = await send(page, "What is my favourite colour?", /Your favourite colour is teal\./);
  expect(await answerText(third)).toBe("Your favourite colour is teal.");
}

/** The session id in the browser's signed cookie (its payload is base64url JSON). */
export async function sessionIdOf(context: BrowserContext): Promise<string> {
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "agentcore_chat");
  return (JSON.parse(Buffer.from(cookie!.value.split(".")[0]!, "base64url").toString("utf8")) as { sessionId: string })
    .sessionId;
}
