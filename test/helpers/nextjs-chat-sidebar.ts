// The sidebar scenarios of test/nextjs-chat.e2e.test.ts: the signed-in user's chats newest first,
// a title that appears after the first answer without a reload, New chat, delete (from the list
// and the store), the tokens under each answer equal to the stored metadata's usage, and another
// user refused (404) on a chat id that is not theirs: the page, its history GET, the chat POST and
// DELETE. The store is read directly (a FileMemoryStore on the app's file, as a second process).
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import type { Page } from "playwright-core";
import { convertToUIMessages, FileMemoryStore } from "../../src/index";
import { answerText, send } from "./nextjs-chat-page";
import { openChat, type ChatHarness } from "./nextjs-chat-scenarios";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const titles = (page: Page) => page.locator("#chats > li .chat-title").allInnerTexts();
/** The open chat's id, from the page's address (`?chat=`). */
const openChatId = (page: Page) => new URL(page.url()).searchParams.get("chat");
const storeOf = (harness: ChatHarness) => new FileMemoryStore({ path: harness.storePath });

/** The usage line each answer of `chatId` should show, from the metadata the store holds. */
async function storedUsage(harness: ChatHarness, chatId: string): Promise<string[]> {
  const messages = convertToUIMessages(await storeOf(harness).getMessages(chatId));
  return messages
    .filter((message) => message.role === "assistant")
    .map((message) => {
      const usage = message.metadata?.agentcore?.usage;
      return `${usage?.totalTokens} tokens · ${usage?.inputTokens} in · ${usage?.outputTokens} out`;
    });
}

const shownUsage = (page: Page) => page.locator('li[data-role="assistant"] .usage').allInnerTexts();

export async function sidebarChats(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url());
  });
  await page.waitForSelector('#chats[data-loaded="true"]', { state: "attached" });
  expect(await titles(page)).toEqual([]);

  // The first answer lists the chat, then its title comes (the stream's data-title part): no reload.
  await send(page, "Plan a trip to Lisbon", /^You said: Plan a trip to Lisbon$/);
  await expect.poll(() => titles(page), { timeout: 30_000 }).toEqual(["Plan a trip to Lisbon"]);
  const first = openChatId(page)!;
  expect(first).toMatch(/^chat-/);
  expect(await page.locator(`#chats > li[data-chat-id="${first}"] .open-chat`).getAttribute("aria-current")).toBe(
    "page",
  );

  // The tokens under the answer are the stored metadata's usage (each answer's own: they differ).
  await send(page, "And a second question", /^You said: And a second question$/);
  const firstUsage = await storedUsage(harness, first);
  expect(firstUsage).toHaveLength(2);
  expect(firstUsage[0]).not.toBe(firstUsage[1]);
  expect(await shownUsage(page)).toEqual(firstUsage);

  // Something typed and not sent is kept while another chat is open.
  await page.fill("#prompt", "A draft for Lisbon");
  // New chat: empty, its own id; listed after its first answer, newest first.
  await page.click("#new-chat");
  await expect.poll(() => page.locator("#messages > li").count()).toBe(0);
  expect(await page.inputValue("#prompt")).toBe("");
  const second = openChatId(page)!;
  expect(second).toMatch(/^chat-/);
  expect(second).not.toBe(first);
  expect(await titles(page)).toEqual(["Plan a trip to Lisbon"]);
  await send(page, "Recipes for dinner tonight", /^You said: Recipes for dinner tonight$/);
  await expect
    .poll(() => titles(page), { timeout: 30_000 })
    .toEqual(["Recipes for dinner tonight", "Plan a trip to Lisbon"]);
  expect(await shownUsage(page)).toEqual(await storedUsage(harness, second));

  // Back to the first chat: its history, its draft; an answer there puts it first again.
  await page.locator(`#chats > li[data-chat-id="${first}"] .open-chat`).click();
  await expect
    .poll(() => page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts())
    .toEqual(["Plan a trip to Lisbon", "And a second question"]);
  expect(await page.inputValue("#prompt")).toBe("A draft for Lisbon");
  await send(page, "One more thing", /^You said: One more thing$/);
  await expect
    .poll(() => titles(page), { timeout: 30_000 })
    .toEqual(["Plan a trip to Lisbon", "Recipes for dinner tonight"]);
  expect(documents).toEqual([]); // all of it without loading the page again

  // After a reload: the same chat (from the address), the same list, the same tokens.
  await page.reload();
  await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
  await page.waitForSelector('#chats[data-loaded="true"]', { state: "attached" });
  expect(await titles(page)).toEqual(["Plan a trip to Lisbon", "Recipes for dinner tonight"]);
  expect(await answerText(page.locator('li[data-role="assistant"]').last())).toBe("You said: One more thing");
  expect(await shownUsage(page)).toEqual(await storedUsage(harness, first));
  // The store lists the same, newest first.
  const { sessions } = await storeOf(harness).listSessions({
    userId: (await storeOf(harness).getSession(first))!.userId!,
  });
  expect(sessions.map((session) => [session.sessionId, session.title])).toEqual([
    [first, "Plan a trip to Lisbon"],
    [second, "Recipes for dinner tonight"],
  ]);

  mkdirSync(join(root, "test-results"), { recursive: true });
  await page.screenshot({ path: join(root, "test-results", "nextjs-chat-sidebar.png"), fullPage: true });

  // Delete the open chat: gone from the list and the store; the page opens a new, empty chat.
  await page.locator(`#chats > li[data-chat-id="${first}"] .delete-chat`).click();
  await expect.poll(() => titles(page)).toEqual(["Recipes for dinner tonight"]);
  expect(await page.locator("#messages > li").count()).toBe(0);
  expect(openChatId(page)).not.toBe(first);
  expect(await storeOf(harness).getSession(first)).toBeUndefined();
  expect(await storeOf(harness).getMessages(first)).toEqual([]);
  expect(
    (await storeOf(harness).listSessions({ userId: sessions[0]!.userId! })).sessions.map((s) => s.sessionId),
  ).toEqual([second]);
}

export async function otherUsersChat(harness: ChatHarness): Promise<void> {
  const { page } = await openChat(harness.browser, `${harness.baseURL}/`);
  await send(page, "A secret of user A", /^You said: A secret of user A$/);
  const chatId = openChatId(page)!;
  const requestsBefore = harness.modelRequests().length;

  // User B: another browser context, another cookie.
  const { context: other, page: stranger } = await openChat(harness.browser, `${harness.baseURL}/`);
  const api = `${harness.baseURL}/api/chat`;
  const history = await other.request.get(`${api}?id=${chatId}`);
  expect([history.status(), await history.json()]).toEqual([
    404,
    { error: "This chat does not exist, or it is not yours." },
  ]);
  const message = { id: "b-message-1", role: "user", parts: [{ type: "text", text: "Let me in" }] };
  const posted = await other.request.post(api, { data: { id: chatId, messages: [message] } });
  expect([posted.status(), await posted.text()]).toEqual([404, "This chat does not exist, or it is not yours."]);
  const deleted = await other.request.delete(`${api}?id=${chatId}`);
  expect(deleted.status()).toBe(404);
  // The page with A's chat in its address shows the refusal, and nothing of the chat.
  await stranger.goto(`${harness.baseURL}/?chat=${chatId}`);
  await expect.poll(() => stranger.textContent("#error")).toBe("This chat does not exist, or it is not yours.");
  expect(await stranger.locator("#messages > li").count()).toBe(0);
  await stranger.waitForSelector('#chats[data-loaded="true"]', { state: "attached" });
  expect(await stranger.locator("#chats > li").count()).toBe(0);

  // Nothing ran and nothing changed: A's chat is as A left it.
  expect(harness.modelRequests().length).toBe(requestsBefore);
  const stored = await storeOf(harness).getMessages(chatId);
  expect(stored.map((stored) => stored.role)).toEqual(["user", "assistant"]);
  await page.reload();
  await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
  expect(await page.locator("#messages > li").count()).toBe(2);
  await other.close();
}
