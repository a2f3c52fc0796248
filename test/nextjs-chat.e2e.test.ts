// End to end: the Next.js example as a user gets it (copied out of the repository, agentcore from
// the packed tarball, ai 7: test/helpers/nextjs-chat-app.ts), started on loopback with its script
// played by a loopback Anthropic server (turns go through the real Anthropic adapter; the test
// reads what the model received), driven in Debian's Chromium through playwright-core. Streamed
// answers with their reasoning, tool cards, a reload that brings the history back from the store,
// a fact from turn one used in turn three: on the Node route (/, a file store) and the edge route
// (/edge, the Upstash store, through the loopback Upstash REST bridge to the real local Redis).
// Then an image and a PDF to the model and back from the store, a message sent the moment the page
// opens; errors with Retry, the size limit checked before sending, a message sent while a call
// awaits approval, edit, keyboard attach, a 375 px screen, a server that refuses to start without
// its session secret; the sidebar of the user's chats, and another user refused on them; a reload
// mid-answer that reattaches to it, and Stop mid-answer (helpers/nextjs-chat-resume.ts). One
// build, one server, one browser serve all.
import type { ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Redis } from "@upstash/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { UpstashRedisMemoryStore } from "../src/stores/upstash";
import { buildChatApp, dependencyMismatches, startChatApp } from "./helpers/nextjs-chat-app";
import { blocksOf, gradientPng, type ModelGate, startScriptedAnthropic, tinyPdf } from "./helpers/nextjs-chat-model";
import { serviceAvailable, servicesRequired, skipMessage, uniqueName } from "./helpers/services";
import { startUpstashRestBridge, type UpstashRestBridge } from "./helpers/upstash-rest-bridge";
import type { FakeLlmServer } from "./servers/fake-llm-server";
import {
  answerText,
  converse,
  freePort,
  launchChromium,
  send,
  sessionIdOf,
  waitForServer,
} from "./helpers/nextjs-chat-page";
import * as resume from "./helpers/nextjs-chat-resume";
import * as scenarios from "./helpers/nextjs-chat-scenarios";
import * as sidebar from "./helpers/nextjs-chat-sidebar";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
let app = ""; // the built copy of examples/nextjs-chat
const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const available = existsSync(chromiumPath);
if (!available && servicesRequired)
  throw new Error(
    `Chromium is required for the end-to-end test but ${chromiumPath} does not exist (apt-get install -y chromium).`,
  );
if (!available) skipMessage("the Next.js browser test", `no Chromium at ${chromiumPath}`);
const redisAvailable = available && (await serviceAvailable("redis"));

// vitest sets NODE_ENV=test; Next.js must build and run as production.
const storePath = join(mkdtempSync(join(tmpdir(), "agentcore-nextjs-chat-")), "sessions.json");
afterAll(() => rmSync(dirname(storePath), { recursive: true, force: true }));
const edgePrefix = `${uniqueName("agentcore-nextjs-edge")}:`;
const environment = {
  ...process.env,
  CHAT_STORE_PATH: storePath,
  CHAT_STORE_PREFIX: edgePrefix,
  NODE_ENV: "production",
  NEXT_TELEMETRY_DISABLED: "1",
  OPENAI_API_KEY: "",
  ANTHROPIC_API_KEY: "test-key", // with ANTHROPIC_BASE_URL, set to the scripted server below
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
};
const modelState: { down: boolean; gate?: ModelGate } = { down: false };
let serverLog = "";
let server: ChildProcess | undefined;
let bridge: UpstashRestBridge | undefined;
let model: FakeLlmServer | undefined;
let browser: Browser | undefined;
let baseURL = "";

const openChat = (path: string) => scenarios.openChat(browser!, baseURL + path);
const harness = (): resume.ResumeHarness => ({
  browser: browser!,
  baseURL,
  app,
  environment,
  modelState,
  serverLog: () => serverLog,
  storePath,
  modelRequests: () => model!.requests,
  modelClosedEarly: () => model!.closedEarly,
  edgeMessages: (chatId) => edgeStore().getMessages(chatId),
});
/** The edge route's store, read as another process would. */
const edgeStore = () =>
  new UpstashRedisMemoryStore({ client: new Redis({ url: bridge!.url, token: bridge!.token }), prefix: edgePrefix });
const chatRequests = (from: number) => scenarios.chatRequests(model!.requests, from);

describe.skipIf(!available)("examples/nextjs-chat in Chromium", () => {
  beforeAll(async () => {
    model = await startScriptedAnthropic(modelState);
    Object.assign(environment, { ANTHROPIC_BASE_URL: model.url });
    app = await buildChatApp(environment);
    if (redisAvailable) {
      bridge = await startUpstashRestBridge();
      Object.assign(environment, { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token });
    }
    const port = await freePort();
    baseURL = `http://127.0.0.1:${port}`;
    server = startChatApp(app, port, environment, (text) => {
      serverLog += text;
    });
    await waitForServer(`${baseURL}/api/chat`, 60_000);
    browser = await launchChromium(chromiumPath);
  }, 1_800_000); // packing, installing and next build take many minutes on a loaded machine

  afterAll(async () => {
    await browser?.close();
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolveExit) => server!.once("exit", resolveExit));
      server.kill("SIGTERM");
      await exited;
    }
    await bridge?.close(); // deletes every key the edge route wrote
    await model?.close();
    if (app && !process.env.AGENTCORE_NEXTJS_CHAT_APP) rmSync(app, { recursive: true, force: true });
  });

  it("is a template: its package.json names the versions the repository tests (ai 7 as ai-v7)", () =>
    expect(dependencyMismatches()).toEqual([]));

  // Errors, size limit, pending approval, edit, keyboard, phone screen, secret: helpers/nextjs-chat-scenarios.ts.
  it("shows an unreachable model with Retry, after a reload too", () => scenarios.unreachableModel(harness()), 300_000);
  // Stop and resume: helpers/nextjs-chat-resume.ts.
  it("reattaches a page reloaded mid-answer, once", () => resume.reloadMidAnswer(harness()), 300_000);
  it("stops mid-answer: stores what was shown, cancels the model", () => resume.stopMidAnswer(harness()), 300_000);
  it.skipIf(!redisAvailable)(
    "reattaches on a second app instance after the connection drops mid-answer (edge route, Upstash store)",
    () => resume.reloadOnAnotherInstance(harness()),
    300_000,
  );
  it("refuses an oversized attachment before sending", () => scenarios.oversizedAttachment(harness()), 300_000);
  it("denies a pending approval when a new message comes", () => scenarios.newMessageWhilePending(harness()), 300_000);
  it("edits a sent message, in the page and the store", () => scenarios.editMessage(harness()), 300_000);
  it("attaches a file with the keyboard alone", () => scenarios.keyboardAttach(harness()), 300_000);
  it("fits a 375 px screen and finds its icon", () => scenarios.narrowScreen(harness()), 300_000);
  it(
    "regenerates the last answer: the store holds the new answer in place of the old one",
    () => scenarios.regenerateAnswer(harness()),
    300_000,
  );
  it("refuses to start without SESSION_SECRET", () => scenarios.refusesWithoutSecret(harness()), 120_000);
  it(
    "lists the user's chats newest first, titled after the first answer; new chat, delete, tokens",
    () => sidebar.sidebarChats(harness()),
    300_000,
  );
  it(
    "refuses another user's chat: 404 on the page, its history, the chat POST and DELETE",
    () => sidebar.otherUsersChat(harness()),
    300_000,
  );

  it("streams answers, keeps history across a reload, and uses a fact from turn one in turn three", async () => {
    const { page } = await openChat("/");
    // The store holds the history: each POST carries only the new message, not the conversation again.
    const [posted, requestsBefore]: [number[], number] = [[], model!.requests.length];
    page.on("request", (request) => {
      if (request.method() === "POST" && request.url().endsWith("/api/chat"))
        posted.push((JSON.parse(request.postData() ?? "{}") as { messages: unknown[] }).messages.length);
    });
    await converse(page);
    expect(posted).toEqual([1, 1, 1]);
    // In this test's tool loop the model got its own thinking back first, signed, as the API requires.
    const toolLoop = model!.requests
      .slice(requestsBefore)
      .find((request) => blocksOf(request.body.messages.at(-1)).some((block) => block.type === "tool_result"));
    expect(blocksOf(toolLoop!.body.messages.at(-2))[0]).toMatchObject({
      type: "thinking",
      thinking: expect.stringContaining("remember_fact"),
      signature: expect.stringMatching(/^signature-\d+$/),
    });

    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "nextjs-chat.png"), fullPage: true });

    // The conversation is on disk, in the file store's readable JSON (snapshot and journal).
    const onDisk = [storePath, `${storePath}.journal`]
      .filter((path) => existsSync(path))
      .map((path) => readFileSync(path, "utf8"))
      .join("\n");
    expect(onDisk).toContain("Remember that my favourite colour is teal.");

    // A second browser (another cookie, so another session) sees none of it.
    const { page: stranger } = await openChat("/");
    expect(await stranger.locator("#messages li").count()).toBe(0);
  }, 300_000);

  it.skipIf(!redisAvailable)(
    "does the same on the edge route, on the Upstash store",
    async () => {
      // next build made /api/chat-edge an edge function and left /api/chat in Node.
      const manifest = JSON.parse(readFileSync(join(app, ".next", "server", "middleware-manifest.json"), "utf8")) as {
        functions: Record<string, { files: string[] }>;
      };
      expect(Object.keys(manifest.functions).sort()).toEqual([
        "/api/chat-edge/[id]/stream/route",
        "/api/chat-edge/chats/route",
        "/api/chat-edge/route",
        "/api/chat-edge/stop/route",
      ]);
      // Bundled with agentcore's edge build (the edge-light condition): the Node build's tokenizer
      // loader (createRequire, in the Node route's chunks) is not in it.
      const bundled = manifest.functions["/api/chat-edge/route"]!.files.map((file) =>
        readFileSync(join(app, ".next", file), "utf8"),
      ).join("\n");
      expect(bundled).toContain("UpstashRedisMemoryStore");
      expect(bundled).not.toContain("createRequire");
      expect((await fetch(`${baseURL}/api/chat-edge`)).headers.get("x-agentcore-runtime")).toBe("edge");
      expect((await fetch(`${baseURL}/api/chat`)).headers.get("x-agentcore-runtime")).toBe("nodejs");

      const { context, page } = await openChat("/edge");
      const turns: (string | null)[] = [];
      page.on("response", (response) => {
        if (response.request().method() === "POST" && response.url().endsWith("/api/chat-edge"))
          turns.push(response.headers()["x-agentcore-runtime"] ?? null);
      });
      await converse(page);
      expect(turns).toEqual(["edge", "edge", "edge"]);
      mkdirSync(join(root, "test-results"), { recursive: true });
      await page.screenshot({ path: join(root, "test-results", "nextjs-chat-edge.png"), fullPage: true });

      // The conversation is in Redis under the route's prefix, read back through the REST bridge.
      const store = edgeStore();
      const stored = await store.getMessages(await sessionIdOf(context));
      expect(stored.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
        "Remember that my favourite colour is teal.",
        "What's the weather in Oslo?",
        "What is my favourite colour?",
      ]);
      expect([...bridge!.touchedKeys].every((key) => key.startsWith(edgePrefix))).toBe(true);

      const { page: stranger } = await openChat("/edge");
      expect(await stranger.locator("#messages li").count()).toBe(0);
    },
    300_000,
  );

  it("sends an image and a PDF to the model as image and document content, and shows them again from the store", async () => {
    const png = gradientPng(96);
    const pdf = tinyPdf("Quarterly report");
    const { page } = await openChat("/");
    await page.setInputFiles("#attach", [
      { name: "gradient.png", mimeType: "image/png", buffer: png },
      { name: "report.pdf", mimeType: "application/pdf", buffer: pdf },
    ]);
    // Both wait as thumbnails in the composer before they are sent.
    await page.waitForSelector(".pending-attachments img", { state: "visible" });
    expect(await page.locator(".pending-attachments li").count()).toBe(2);
    const requestsBefore = model!.requests.length;
    const answer = await send(
      page,
      "What is in these?",
      /I received an image \(image\/png\) and a file report\.pdf \(application\/pdf\)\. You wrote: What is in these\?/,
    );
    expect(await page.locator(".pending-attachments li").count()).toBe(0);
    expect(await answer.locator('details[data-part="reasoning"]').count()).toBe(1);

    // The model received the bytes as an image block and a document block, not as text.
    const received = chatRequests(requestsBefore).map((request) => request.body);
    expect(received).toHaveLength(1);
    // useChat puts the files before the text. (The bytes compared, not printed: a failure stays readable.)
    const uploaded = new Map([
      [png.toString("base64"), "<the uploaded PNG>"],
      [pdf.toString("base64"), "<the uploaded PDF>"],
    ]);
    const userBlocks = blocksOf(received[0].messages.at(-1)).map((block) =>
      block.source
        ? { ...block, source: { ...block.source, data: uploaded.get(block.source.data) ?? "<other bytes>" } }
        : block,
    );
    expect(userBlocks).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "<the uploaded PNG>" } },
      {
        type: "document",
        source: { type: "base64", media_type: "application/pdf", data: "<the uploaded PDF>" },
        title: "report.pdf",
      },
      { type: "text", text: "What is in these?" },
    ]);

    // A reload shows the message, the image (bytes from the store) and the PDF tile again.
    const imageSource = `data:image/png;base64,${png.toString("base64")}`;
    const shown = async () => {
      const sent = page.locator('li[data-role="user"]').last();
      return {
        text: await sent.locator('[data-part="text"]').textContent(),
        image: (await sent.locator("img").getAttribute("src")) === imageSource ? "<the uploaded PNG>" : "<other>",
        imageWidth: await sent.locator("img").evaluate((image: HTMLImageElement) => image.naturalWidth),
        imageName: await sent.locator("img").getAttribute("alt"), // the file name, kept by the store
        file: await sent.locator(".attachment.file").textContent(),
      };
    };
    const expected = {
      text: "What is in these?",
      image: "<the uploaded PNG>",
      imageWidth: 96,
      imageName: "gradient.png",
      file: "PDFreport.pdf",
    };
    expect(await shown()).toEqual(expected);
    await page.reload();
    await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    expect(await page.locator("#messages > li").count()).toBe(2);
    expect(await shown()).toEqual(expected);
    expect(await answerText(page.locator('li[data-role="assistant"]').last())).toMatch(/I received an image/);
    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "nextjs-chat-attachments.png"), fullPage: true });
  }, 300_000);

  it("keeps a message typed and sent the moment the page opens", async () => {
    const context = await browser!.newContext();
    const page = await context.newPage();
    // A native submit would load the page again: a second document request.
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) documents.push(request.url());
    });
    // No wait for the page to settle: the input is typed into as soon as it can be, and sent.
    await page.goto(`${baseURL}/`, { waitUntil: "commit" });
    await page.fill("#prompt", "Hello right away");
    await page.press("#prompt", "Enter");
    const answer = page.locator('li[data-role="assistant"]');
    await expect
      .poll(async () => (await answer.count()) > 0 && (await answerText(answer.first())), { timeout: 30_000 })
      .toBe("You said: Hello right away");
    expect(documents).toEqual([`${baseURL}/`]); // no native submit reloaded the page
    await page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });

    await page.reload();
    await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    expect(await page.locator('li[data-role="user"] [data-part="text"]').allInnerTexts()).toEqual(["Hello right away"]);
    await context.close();
  }, 300_000);

  it("asks approval for book_table: an approved call runs and stays in the store, a denial's reason reaches the model", async () => {
    const { page } = await openChat("/");
    const ready = () => page.waitForSelector('#status[data-status="ready"]', { state: "attached", timeout: 30_000 });
    const cards = page.locator('[data-tool="book_table"]');

    // The run stops at the call: the card asks, with the call's input.
    await page.fill("#prompt", "Book a table for 2 at 7pm");
    await page.click("#send");
    await cards.nth(0).locator("button.approve").waitFor({ state: "visible", timeout: 30_000 });
    await ready();
    expect(await cards.nth(0).getAttribute("data-state")).toBe("approval-requested");
    expect(await cards.nth(0).locator('[data-fields="input"]').textContent()).toMatch(/guests\s*2\s*time\s*7pm/);
    await cards.nth(0).locator("button.approve").click();
    // The buttons go with the answer; the focus goes to the composer, not to the page's body.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("prompt");
    const answers = page.locator('li[data-role="assistant"]');
    await expect
      .poll(() => answerText(answers.nth(0)), { timeout: 30_000 })
      .toMatch(/^Your table is booked: .*"reference":"T-2-7pm"/);
    await ready();
    expect(await cards.nth(0).getAttribute("data-state")).toBe("output-available");

    // Denied with a reason: the model is told the user's reason, and says so.
    await page.fill("#prompt", "Book a table for 6 at 11pm");
    await page.click("#send");
    await cards.nth(1).locator("button.deny").waitFor({ state: "visible", timeout: 30_000 });
    await ready();
    const requestsBefore = model!.requests.length;
    await cards.nth(1).locator(".deny-reason").fill("Too late for me");
    await cards.nth(1).locator("button.deny").click();
    await expect
      .poll(() => answerText(answers.nth(1)), { timeout: 30_000 })
      .toBe("I did not book the table. Your reason: Too late for me");
    await ready();
    expect(await cards.nth(1).getAttribute("data-state")).toBe("output-denied");
    const toolResults = model!.requests
      .slice(requestsBefore)
      .flatMap((request) => blocksOf(request.body.messages.at(-1)))
      .filter((block) => block.type === "tool_result");
    expect(toolResults).toHaveLength(1);
    expect(JSON.stringify(toolResults[0]!.content)).toContain("Too late for me");

    // A reload shows both calls as the store has them: the approved one with its output, the denied one with the reason.
    await page.reload();
    await page.waitForSelector('#messages[data-loaded="true"]', { state: "attached" });
    expect(await cards.evaluateAll((found) => found.map((card) => card.getAttribute("data-state")))).toEqual([
      "output-available",
      "output-denied",
    ]);
    expect(await cards.nth(0).locator('[data-fields="output"]').textContent()).toMatch(/reference\s*T-2-7pm/);
    expect(await cards.nth(1).locator(".tool-denied").textContent()).toBe("Denied: Too late for me");
    expect(await answerText(answers.nth(1))).toBe("I did not book the table. Your reason: Too late for me");
    mkdirSync(join(root, "test-results"), { recursive: true });
    await page.screenshot({ path: join(root, "test-results", "nextjs-chat-approvals.png"), fullPage: true });
  }, 300_000);
});
