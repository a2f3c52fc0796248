// The example's Stop button and resumed streams, for test/nextjs-chat.e2e.test.ts: a page reloaded
// mid-answer reattaches to it (one answer, complete, equal to the stored one), and Stop mid-answer
// stores the partial answer the page shows (marked "stopped"), cancels the model's request and
// leaves the chat free for the next message. The model holds its answer after the first piece of
// text until the test opens its gate (or the app closes the request): no timing, only conditions.
// The store is read directly (a FileMemoryStore on the app's file, as a second process).
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { contentText, FileMemoryStore, type AgentMessage } from "../../src/index";
import type { ModelGate } from "./nextjs-chat-model";
import { startChatApp } from "./nextjs-chat-app";
import { answerText, freePort, send, waitForServer } from "./nextjs-chat-page";
import { openChat, type ChatHarness } from "./nextjs-chat-scenarios";

export interface ResumeHarness extends ChatHarness {
  modelState: { down: boolean; gate?: ModelGate };
  /** How many model responses the app closed before they ended (a cancelled request). */
  modelClosedEarly: () => number;
  /** The edge route's Upstash store, read as another process. */
  edgeMessages: (chatId: string) => Promise<AgentMessage[]>;
}

const loaded = (page: Page) => page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
const ready = (page: Page) => page.waitForSelector('#status[data-status="ready"]', { state: "attached" });
const answers = (page: Page) => page.locator('li[data-role="assistant"]');
const storedOf = (harness: ChatHarness, chatId: string) =>
  new FileMemoryStore({ path: harness.storePath }).getMessages(chatId);
const textOf = (message: AgentMessage | undefined) => (message ? contentText(message.content) : "");

/** Holds the answer to a message containing `prompt` until the returned function is called. */
function gate(harness: ResumeHarness, prompt: string): () => void {
  let open!: () => void;
  harness.modelState.gate = { prompt, open: new Promise<void>((resolve) => (open = resolve)) };
  return () => {
    harness.modelState.gate = undefined;
    open();
  };
}

export async function reloadMidAnswer(harness: ResumeHarness): Promise<void> {
  const chatId = `chat-${randomUUID()}`;
  const prompt = "Tell me slowly about resumable streams";
  const full = `You said: ${prompt}`;
  const release = gate(harness, prompt);
  const { context, page } = await openChat(harness.browser, `${harness.baseURL}/?chat=${chatId}`);
  try {
    await page.fill("#prompt", prompt);
    await page.click("#send");
    // The first piece of the answer is shown; the model holds the rest.
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe("You s");

    await page.reload();
    await loaded(page);
    // The stored user message, and the answer reattached: replayed from its start, once.
    expect(await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts()).toEqual([prompt]);
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe("You s");
    expect(await page.getAttribute("#status", "data-connection")).toBe("answering");

    release();
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe(full);
    await ready(page);
    expect(await answers(page).count()).toBe(1);
    const stored = await storedOf(harness, chatId);
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(stored[1])).toBe(full);

    // After the end a reload shows it once, from the store.
    await page.reload();
    await loaded(page);
    expect(await Promise.all((await answers(page).all()).map(answerText))).toEqual([full]);
  } finally {
    release();
    await context.close();
  }
}

export async function stopMidAnswer(harness: ResumeHarness): Promise<void> {
  const chatId = `chat-${randomUUID()}`;
  const prompt = "Stop me before I finish this sentence";
  const full = `You said: ${prompt}`;
  const release = gate(harness, prompt);
  const { context, page } = await openChat(harness.browser, `${harness.baseURL}/?chat=${chatId}`);
  try {
    const closedBefore = harness.modelClosedEarly();
    await page.fill("#prompt", prompt);
    await page.click("#send");
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe("You s");
    // Stop takes Send's place while the answer streams, reached with the keyboard from the prompt.
    expect(await page.locator("#send").count()).toBe(0);
    await page.focus("#prompt");
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("stop");
    await page.keyboard.press("Enter");
    await ready(page);
    const shown = await answerText(answers(page).first());

    // The model server saw its request cancelled.
    await expect.poll(() => harness.modelClosedEarly(), { timeout: 30_000 }).toBeGreaterThan(closedBefore);
    // The store holds the partial answer, marked stopped: what the page shows, give or take chunks in flight.
    await expect
      .poll(async () => (await storedOf(harness, chatId)).at(-1)?.role, { timeout: 30_000 })
      .toBe("assistant");
    const stored = await storedOf(harness, chatId);
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant"]);
    const last = stored[1] as AgentMessage & { finishReason?: string };
    expect(last.finishReason).toBe("stopped");
    const storedText = textOf(last);
    expect(storedText).not.toBe("");
    expect(shown).not.toBe("");
    expect(full.startsWith(storedText) && storedText !== full).toBe(true);
    expect(storedText.startsWith(shown) || shown.startsWith(storedText)).toBe(true);

    // Another user cannot reattach to this chat's stream: 404, as on the other routes.
    const other = await openChat(harness.browser, `${harness.baseURL}/`);
    const resumed = await other.context.request.get(`${harness.baseURL}/api/chat/${chatId}/stream`);
    expect(resumed.status()).toBe(404);
    await other.context.close();

    // The next message is answered at once, after the stopped one.
    await send(page, "What is my favourite dish?", /^I don't know your favourite dish yet\.$/);
    expect(await answers(page).count()).toBe(2);
    expect((await storedOf(harness, chatId)).map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
  } finally {
    release();
    await context.close();
  }
}

/**
 * The connection drops mid-answer and the page comes back on a second instance of the app (the
 * edge route, on the shared Upstash store): it reattaches to the answer the first instance is still
 * generating, and ends with it once, complete, equal to the stored one.
 */
export async function reloadOnAnotherInstance(harness: ResumeHarness): Promise<void> {
  const port = await freePort();
  const second = startChatApp(harness.app, port, harness.environment, () => {});
  const secondURL = `http://127.0.0.1:${port}`;
  const chatId = `chat-${randomUUID()}`;
  const prompt = "Tell me slowly on another instance";
  const full = `You said: ${prompt}`;
  const release = gate(harness, prompt);
  const { context, page } = await openChat(harness.browser, `${harness.baseURL}/edge?chat=${chatId}`);
  try {
    await waitForServer(`${secondURL}/api/chat-edge`, 60_000);
    await page.fill("#prompt", prompt);
    await page.click("#send");
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe("You s");

    // The same user (the cookie is the host's, whatever the port) on the second instance.
    await page.goto(`${secondURL}/edge?chat=${chatId}`);
    await loaded(page);
    expect(await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts()).toEqual([prompt]);
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe("You s");

    release();
    await expect.poll(() => answerText(answers(page).first()), { timeout: 30_000 }).toBe(full);
    await ready(page);
    expect(await answers(page).count()).toBe(1);
    const stored = await harness.edgeMessages(chatId);
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(textOf(stored[1])).toBe(full);
  } finally {
    release();
    await context.close();
    const exited = new Promise((resolveExit) => second.once("exit", resolveExit));
    second.kill("SIGTERM");
    await exited;
  }
}
