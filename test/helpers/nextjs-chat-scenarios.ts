// Scenarios of test/nextjs-chat.e2e.test.ts that make the example a template a user can trust:
// an error shown with Retry (also after a reload), the one size limit checked before sending,
// a message sent while a call awaits approval (it denies the call), edit, attaching with the keyboard,
// a 375 px screen (its chat list folded into a menu), regenerate, and a server that will not start without
// its session secret. Each gets the running app from the test file (one build, one server, one browser).
import { expect } from "vitest";
import type { Browser, BrowserContext, FileChooser, Page } from "playwright-core";
import type { RecordedRequest } from "../servers/fake-llm-server";
import { NEW_MESSAGE_DENIAL } from "../../src/agent/tool-approvals";
import { startChatApp } from "./nextjs-chat-app";
import { blocksOf, gradientPng, isTitleRequest } from "./nextjs-chat-model";
import { answerText, freePort, send } from "./nextjs-chat-page";

export interface ChatHarness {
  browser: Browser;
  baseURL: string;
  /** The built app's folder. */
  app: string;
  /** The environment the server runs with. */
  environment: NodeJS.ProcessEnv;
  /** The scripted model: down while `down` is true. */
  modelState: { down: boolean };
  /** What the server wrote to stderr so far. */
  serverLog: () => string;
  /** The Node route's file store. */
  storePath: string;
  /** What the scripted model received so far. */
  modelRequests: () => RecordedRequest[];
}

/** Opens `path` in a new browser context and waits for the stored history to load. */
export async function openChat(
  browser: Browser,
  url: string,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext(options.viewport ? { viewport: options.viewport } : {});
  const page = await context.newPage();
  await page.goto(url);
  await loaded(page);
  return { context, page };
}

const loaded = (page: Page) => page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
const ready = (page: Page) =>
  page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });
const statusDot = (page: Page) =>
  page.locator("#status").evaluate((status) => getComputedStyle(status, "::before").backgroundColor);
const GREEN = "rgb(21, 128, 61)"; // --ok, light scheme
const RED = "rgb(185, 28, 28)"; // --bad
const failures = (log: string) => log.split("[agentcore] streamText failed:").length - 1;

export async function unreachableModel(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  expect(await page.getAttribute("#status", "data-connection")).toBe("online");
  expect(await statusDot(page)).toBe(GREEN);
  const loggedBefore = failures(harness.serverLog());
  harness.modelState.down = true;
  try {
    await page.fill("#prompt", "Hello while the model is down");
    await page.click("#send");
    await page.locator("#retry").waitFor({ state: "visible", timeout: 30_000 });
    // The user reads what happened (the APICallError's publicMessage), never the provider's body.
    await expect.poll(() => page.textContent("#error")).toBe("The model could not be reached. Try again in a moment.");
    expect(await page.getAttribute("#status", "data-connection")).toBe("error");
    expect(await statusDot(page)).toBe(RED);
    // The server logged the failure once, with its cause.
    await expect.poll(() => failures(harness.serverLog())).toBe(loggedBefore + 1);
    expect(harness.serverLog()).toContain("Overloaded (internal cluster eu-7)");

    // After a reload the message is there (the store kept it), unanswered, with Retry (once the
    // page's reconnect to the unanswered message's stream has ended: it has nothing to add).
    await page.reload();
    await loaded(page);
    await page.locator("#retry").waitFor({ state: "visible" });
    expect(await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts()).toEqual([
      "Hello while the model is down",
    ]);
    expect(await page.locator('li[data-role="assistant"]').count()).toBe(0);
  } finally {
    harness.modelState.down = false;
  }
  await page.click("#retry");
  const answer = page.locator('li[data-role="assistant"]');
  await expect.poll(() => answerText(answer), { timeout: 30_000 }).toBe("You said: Hello while the model is down");
  await ready(page);
  expect(await page.locator("#retry").count()).toBe(0);
  await page.reload();
  await loaded(page);
  expect(await page.locator("#messages > li").count()).toBe(2);
  expect(await answerText(page.locator('li[data-role="assistant"]'))).toBe("You said: Hello while the model is down");
}

export async function oversizedAttachment(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(request.url());
  });
  const pending = page.locator(".pending-attachments li");
  const megabytes = (size: number) => Buffer.alloc(Math.round(size * 1024 * 1024), 7);

  // A file over the limit alone is not even attached.
  await page.setInputFiles("#attach", [{ name: "huge.png", mimeType: "image/png", buffer: megabytes(3.5) }]);
  await expect.poll(() => page.textContent("#error")).toContain("huge.png");
  expect(await pending.count()).toBe(0);

  // Two that fit alone but not together: attached, then refused at Send, and kept in the composer.
  await page.setInputFiles("#attach", [
    { name: "first.png", mimeType: "image/png", buffer: megabytes(1.8) },
    { name: "second.png", mimeType: "image/png", buffer: megabytes(1.8) },
  ]);
  await expect.poll(() => pending.count()).toBe(2);
  await page.fill("#prompt", "Two large pictures");
  await page.click("#send");
  await expect.poll(() => page.textContent("#error")).toMatch(/the limit is 4\.0 MB/);
  expect(await page.inputValue("#prompt")).toBe("Two large pictures");
  expect(await pending.count()).toBe(2);
  expect(await page.locator("#messages > li").count()).toBe(0);
  expect(posts).toEqual([]);

  // Without one of them it goes.
  await pending.nth(1).locator("button.remove").click();
  await send(page, "Two large pictures", /^I received an image \(image\/png\)\. You wrote: Two large pictures$/);
  expect(await pending.count()).toBe(0);
}

export async function newMessageWhilePending(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  const card = page.locator('[data-tool="book_table"]');
  await page.fill("#prompt", "Book a table for 4 at 8pm");
  await page.click("#send");
  await card.locator("button.approve").waitFor({ state: "visible", timeout: 30_000 });
  await ready(page);

  // The composer stays usable while the card waits; the new message is answered, and denies the call.
  await send(page, "Never mind that", /^You said: Never mind that$/);
  const shown = async () => ({
    users: await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts(),
    answer: await answerText(page.locator('li[data-role="assistant"]').last()),
    messages: await page.locator("#messages > li").count(),
    card: await card.getAttribute("data-state"),
    denied: await card.locator(".tool-denied").textContent(),
    buttons: await page.locator("button.approve, button.deny").count(),
  });
  const expected = {
    users: ["Book a table for 4 at 8pm", "Never mind that"],
    answer: "You said: Never mind that",
    messages: 4,
    card: "output-denied",
    denied: `Denied: ${NEW_MESSAGE_DENIAL}`,
    buttons: 0,
  };
  expect(await shown()).toEqual(expected); // at once, from the page
  await page.reload();
  await loaded(page);
  expect(await shown()).toEqual(expected); // and as the store holds it: the new message once

  // The tool never ran: the stored call is denied, with no output (a booking's reference "T-4-8pm").
  type Stored = { parts: { type: string; state?: string }[] };
  const stored = (await page.evaluate(async () => (await fetch("/api/chat")).json())) as Stored[];
  const calls = stored.flatMap((message) => message.parts).filter((part) => part.type === "tool-book_table");
  expect(calls.map((call) => call.state)).toEqual(["output-denied"]);
  expect(JSON.stringify(stored)).not.toContain("T-4-8pm");
}

export async function editMessage(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  type Stored = { id: string; role: string; parts: { type: string; text?: string }[] };
  const stored = () => page.evaluate(async () => (await fetch("/api/chat")).json()) as Promise<Stored[]>;
  await send(page, "Hello first", /^You said: Hello first$/);
  await send(page, "Hello second", /^You said: Hello second$/);
  const firstId = (await stored())[0]!.id;

  // Edit the first message: it comes back into the composer; sending replaces it and all after it.
  await page.locator('li[data-role="user"]').first().locator("button.edit").click();
  expect(await page.inputValue("#prompt")).toBe("Hello first");
  await page.locator("#editing").waitFor({ state: "visible" });
  await page.fill("#prompt", "Hello edited");
  await page.click("#send");
  await expect
    .poll(() => page.locator('li[data-role="assistant"]').allInnerTexts(), { timeout: 30_000 })
    .toEqual([expect.stringContaining("You said: Hello edited")]);
  await ready(page);
  const after = await stored();
  expect(after.map((message) => [message.role, message.parts.find((part) => part.type === "text")?.text])).toEqual([
    ["user", "Hello edited"],
    ["assistant", "You said: Hello edited"],
  ]);
  expect(after[0]!.id).toBe(firstId);
  await page.reload();
  await loaded(page);
  expect(await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts()).toEqual(["Hello edited"]);
}

export async function keyboardAttach(harness: ChatHarness): Promise<void> {
  const { context, page } = await openChat(harness.browser, `${harness.baseURL}/`);
  // Chromium opens a file chooser only in the focused tab: earlier tests' tabs are still open.
  await page.bringToFront();
  // Listen before any key is pressed: Playwright turns on file-chooser interception without
  // waiting for the browser's reply, and a chooser opened before that is a native one no test sees.
  const choosers: FileChooser[] = [];
  page.on("filechooser", (chooser) => choosers.push(chooser));
  // The file input is in the tab order, just before the prompt; Space opens the file chooser.
  await page.focus("#prompt");
  await page.keyboard.press("Shift+Tab");
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("attach");
  // A loaded CI machine can drop the first activation; the key is pressed again on the same
  // focused input, never clicked, so the keyboard alone still has to open the chooser.
  for (let attempt = 0; attempt < 3 && choosers.length === 0; attempt++) {
    await page.keyboard.press("Space");
    await expect
      .poll(() => choosers.length, { timeout: 10_000 })
      .toBeGreaterThan(0)
      .catch(() => undefined);
  }
  expect(choosers.length).toBeGreaterThan(0);
  await choosers[0]!.setFiles({ name: "keyboard.png", mimeType: "image/png", buffer: gradientPng(24) });
  await page.locator(".pending-attachments img").waitFor({ state: "visible" });
  await page.focus("#prompt");
  await page.keyboard.type("Sent from the keyboard");
  await page.keyboard.press("Enter");
  await expect
    .poll(() => answerText(page.locator('li[data-role="assistant"]')), { timeout: 30_000 })
    .toBe("I received an image (image/png). You wrote: Sent from the keyboard");
  await context.close();
}

export async function narrowScreen(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`, { viewport: { width: 375, height: 740 } });
  const missing: string[] = [];
  page.on("response", (response) => {
    if (response.status() === 404) missing.push(response.url());
  });
  await page.reload(); // with the listener on: the icon is found
  await loaded(page);
  await send(page, "A rather long message that has to wrap inside its bubble on a small phone screen", /^You said:/);
  const layout = await page.evaluate(() => ({
    pageWidth: document.documentElement.scrollWidth,
    send: document.querySelector("#send")!.getBoundingClientRect().right,
    row: document.querySelector(".composer-row")!.scrollWidth - document.querySelector(".composer-row")!.clientWidth,
  }));
  expect(layout.pageWidth).toBeLessThanOrEqual(375);
  expect(layout.send).toBeLessThanOrEqual(375);
  expect(layout.row).toBe(0);
  expect(missing).toEqual([]);

  // The sidebar is folded into the menu button; the keyboard opens it, goes through it, and closes it.
  const panel = page.locator("#chats-panel");
  expect(await panel.isVisible()).toBe(false);
  await page.focus("#chats-toggle");
  await page.keyboard.press("Enter");
  await panel.waitFor({ state: "visible" });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("new-chat");
  await page.keyboard.press("Tab");
  expect(await page.evaluate(() => document.activeElement?.className)).toBe("open-chat");
  await expect
    .poll(() => page.locator("#chats > li .chat-title").allInnerTexts())
    .toEqual([expect.stringMatching(/^A rather long message/)]);
  const panelRight = await panel.evaluate((element) => element.getBoundingClientRect().right);
  expect(panelRight).toBeLessThanOrEqual(375);
  await page.keyboard.press("Escape");
  await panel.waitFor({ state: "hidden" });
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("chats-toggle");
  expect(await page.getAttribute("#chats-toggle", "aria-expanded")).toBe("false");
}

/** The model's requests from `from` on that are turns of a chat (not generateTitle's calls). */
export const chatRequests = (requests: RecordedRequest[], from: number) =>
  requests.slice(from).filter((request) => !isTitleRequest(request));

export async function regenerateAnswer(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  type Stored = {
    role: string;
    parts: { type: string; text?: string; providerMetadata?: { anthropic?: { signature?: string } } }[];
    metadata: { agentcore: { ids: string[] } };
  };
  // What the store holds, through the route's GET (convertToUIMessages of the session's messages).
  const stored = () => page.evaluate(async () => (await fetch("/api/chat")).json()) as Promise<Stored[]>;
  const signature = (message: Stored) =>
    message.parts.find((part) => part.type === "reasoning")?.providerMetadata?.anthropic?.signature;

  await send(page, "Roll a die", /^You rolled a [1-6]\.$/);
  const before = await stored();
  expect(before.map((message) => message.role)).toEqual(["user", "assistant"]);

  const requestsBefore = harness.modelRequests().length;
  await page.click("#regenerate");
  await expect.poll(() => chatRequests(harness.modelRequests(), requestsBefore).length, { timeout: 30_000 }).toBe(1);
  await page.waitForSelector("#regenerate", { state: "visible", timeout: 30_000 }); // shown again once ready
  // The model was asked the same question again, without the old answer.
  const asked = chatRequests(harness.modelRequests(), requestsBefore)[0]!.body.messages as {
    role: string;
    content: string;
  }[];
  expect(asked.map((message) => [message.role, blocksOf(message)])).toEqual([
    ["user", [{ type: "text", text: "Roll a die" }]],
  ]);

  // One answer in the store, the new one: another stored message, another model response.
  const after = await stored();
  expect(after.map((message) => message.role)).toEqual(["user", "assistant"]);
  expect(after[0]!.metadata.agentcore.ids).toEqual(before[0]!.metadata.agentcore.ids);
  expect(after[1]!.metadata.agentcore.ids).not.toEqual(before[1]!.metadata.agentcore.ids);
  expect(signature(after[1]!)).toMatch(/^signature-\d+$/);
  expect(signature(after[1]!)).not.toBe(signature(before[1]!));
  const shown = await answerText(page.locator('li[data-role="assistant"]').last());
  expect(after[1]!.parts.find((part) => part.type === "text")?.text).toBe(shown);

  await page.reload();
  await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
  expect(await page.locator("#messages > li").count()).toBe(2);
  expect(await answerText(page.locator('li[data-role="assistant"]').last())).toBe(shown);
}

export async function refusesWithoutSecret(harness: ChatHarness): Promise<void> {
  const { SESSION_SECRET: _secret, ...environment } = harness.environment;
  let log = "";
  const server = startChatApp(harness.app, await freePort(), environment, (text) => {
    log += text;
  });
  const code = await new Promise<number | null>((resolveExit) => server.once("exit", resolveExit));
  expect(code).toBe(1);
  expect(log).toContain("SESSION_SECRET is not set");
}
