// The inspector's handler through its Fetch API: refused without the token, read-only unless told,
// hostile records sent inert, and a strict Content-Security-Policy on every response.
import { describe, expect, it } from "vitest";
import { Agent } from "../agent/agent";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import type { ContextReport } from "../stores/context-report";
import { createInspectorHandler } from "./create-inspector-handler";
import { newInspectorToken } from "./inspector-auth";

const token = newInspectorToken();
const base = "http://127.0.0.1:4000";
const get = (handler: (request: Request) => Promise<Response>, path: string, headers: Record<string, string> = {}) =>
  handler(new Request(`${base}${path}`, { headers }));
const withToken = { "x-inspector-token": token };

const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);
const HOSTILE_ID = `<script>alert("id")</script> ' " & 🙂 / ..%2F`;
const HOSTILE_TEXT = `</script><script>alert(1)</script><img src=x onerror="alert(2)"> {{7*7}} \${x}`;

async function hostileStore(): Promise<InMemoryStore> {
  const store = new InMemoryStore();
  await store.appendMessages(HOSTILE_ID, [
    { id: "u1", role: "user", content: HOSTILE_TEXT, timestamp: 1 },
    { id: "a1", role: "assistant", content: "x".repeat(1_000_000), timestamp: 2 },
    {
      id: "u2",
      role: "user",
      content: [
        { type: "text", text: "an image and an svg" },
        { type: "image", image: PNG, mediaType: "image/png" },
        { type: "file", data: btoa("<svg onload='alert(3)'/>"), mediaType: "image/svg+xml", filename: "x.svg" },
        { type: "image", image: btoa("<svg onload='alert(4)'/>"), mediaType: "image/svg+xml" },
      ],
      timestamp: 3,
    },
  ]);
  return store;
}

function expectStrictHeaders(response: Response): void {
  const policy = response.headers.get("content-security-policy") ?? "";
  expect(policy).toContain("default-src 'none'");
  expect(policy).toContain("script-src 'self'");
  expect(policy).toContain("frame-ancestors 'none'");
  expect(policy).not.toContain("unsafe-inline");
  expect(policy).not.toContain("unsafe-eval");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("createInspectorHandler", () => {
  it("serves the page without the token (it holds no data), and sets no cookie", async () => {
    const handler = createInspectorHandler({ store: await hostileStore(), token, basePath: "/inspect" });
    const page = await get(handler, "/inspect/");
    expect(page.status).toBe(200);
    expectStrictHeaders(page);
    expect(page.headers.get("set-cookie")).toBeNull();
    const html = await page.text();
    expect(html).toContain('<script type="module" src="assets/app.js"></script>');
    expect(html).toContain('data-allow-delete="false"');
    expect(html).not.toContain("script>alert");
    expect((await get(handler, "/inspect/assets/app.js")).status).toBe(200);
    expect((await get(handler, "/inspect")).headers.get("location")).toBe("/inspect/");
    expect((await get(handler, "/inspect/api/sessions", withToken)).status).toBe(200);
  });

  it("asks authorize(request) when given one", async () => {
    const handler = createInspectorHandler({
      store: new InMemoryStore(),
      authorize: (request) => request.headers.get("x-user") === "admin",
    });
    expect((await get(handler, "/api/sessions")).status).toBe(401);
    expect((await get(handler, "/")).status).toBe(401); // the page too: the app's own login decides
    expect((await get(handler, "/api/sessions", { "x-user": "admin" })).status).toBe(200);
  });

  it("is never open: without a token or authorize, or with a short token, it is a typed error", () => {
    const store = new InMemoryStore();
    expect(() => createInspectorHandler({ store })).toThrow(
      expect.objectContaining({ name: "InvalidArgumentError", argument: "token" }),
    );
    expect(() => createInspectorHandler({ store, token: "short" })).toThrow(
      expect.objectContaining({ argument: "token" }),
    );
    expect(() => createInspectorHandler({ store: {} as never, token })).toThrow(
      expect.objectContaining({ argument: "store" }),
    );
  });

  it("serves the page's files from the package: preact, hooks, htm, the app and its style", async () => {
    const handler = createInspectorHandler({ store: new InMemoryStore(), token });
    for (const [name, type] of [
      ["preact.js", "text/javascript"],
      ["hooks.js", "text/javascript"],
      ["htm.js", "text/javascript"],
      ["app.js", "text/javascript"],
      ["style.css", "text/css"],
    ]) {
      const response = await get(handler, `/assets/${name}`, withToken);
      expect(response.status, name).toBe(200);
      expect(response.headers.get("content-type")).toContain(type);
    }
    expect(await (await get(handler, "/assets/hooks.js", withToken)).text()).toContain('from"./preact.js"');
    expect((await get(handler, "/assets/__proto__", withToken)).status).toBe(404);
    expect((await get(handler, "/assets/..%2Fpackage.json", withToken)).status).toBe(404);
  });

  it("sends a hostile session inert: escaped JSON, bounded text, odd ids, binary parts by reference", async () => {
    const handler = createInspectorHandler({ store: await hostileStore(), token });
    const list = await get(handler, `/api/sessions?q=${encodeURIComponent("<script>")}`, withToken);
    const listText = await list.text();
    expect(list.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(listText).not.toContain("<");
    expect(JSON.parse(listText).sessions.map((entry: { sessionId: string }) => entry.sessionId)).toEqual([HOSTILE_ID]);

    const response = await get(handler, `/api/session?id=${encodeURIComponent(HOSTILE_ID)}`, withToken);
    expect(response.status).toBe(200);
    expectStrictHeaders(response);
    const text = await response.text();
    expect(text).not.toContain("<");
    expect(text.length).toBeLessThan(200_000); // the 1 MB message is cut to 100,000 characters
    const body = JSON.parse(text);
    expect(body.messages[0].parts).toEqual([{ type: "text", text: HOSTILE_TEXT }]);
    expect(body.messages[1].parts[0]).toMatchObject({ type: "text", truncated: 900_000 });
    expect(body.messages[2].parts.slice(1)).toEqual([
      { type: "image", mediaType: "image/png", bytes: PNG.byteLength, part: 1 },
      { type: "file", mediaType: "image/svg+xml", bytes: 24, part: 2, filename: "x.svg" },
      { type: "image", mediaType: "image/svg+xml", bytes: 24, part: 3 },
    ]);

    const image = await get(handler, `/api/part?session=${encodeURIComponent(HOSTILE_ID)}&message=2&part=1`, withToken);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG);
    // An SVG could run script if shown as a document: sent as a download of opaque bytes.
    // Whether stored as a file or as an image part.
    for (const part of [2, 3]) {
      const svg = await get(
        handler,
        `/api/part?session=${encodeURIComponent(HOSTILE_ID)}&message=2&part=${part}`,
        withToken,
      );
      expect(svg.headers.get("content-type"), `part ${part}`).toBe("application/octet-stream");
      expect(svg.headers.get("content-disposition"), `part ${part}`).toMatch(/^attachment/);
      expectStrictHeaders(svg);
    }
    expect(
      (await get(handler, `/api/part?session=${encodeURIComponent(HOSTILE_ID)}&message=0&part=0`, withToken)).status,
    ).toBe(404);
    // An id the stores refuse is a 400 with a typed error's name.
    const bad = await get(handler, "/api/session?id=", withToken);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ name: "InvalidArgumentError" });
  });

  it("pages the session list and searches it", async () => {
    const store = new InMemoryStore();
    for (let index = 0; index < 120; index++)
      await store.appendMessages(`session-${String(index).padStart(3, "0")}`, [
        { id: "m", role: "user", content: "hi" },
      ]);
    await store.updateSession("session-007", { agentName: "support-bot", tags: ["vip"] });
    const handler = createInspectorHandler({ store, token });
    const page = await (await get(handler, "/api/sessions?offset=100&limit=50", withToken)).json();
    expect(page).toMatchObject({ total: 120, offset: 100, limit: 50 });
    expect(page.sessions).toHaveLength(20);
    const searched = await (await get(handler, "/api/sessions?q=VIP", withToken)).json();
    expect(searched.sessions.map((entry: { sessionId: string }) => entry.sessionId)).toEqual(["session-007"]);
  });

  it("lists a page of 100,000 sessions from entries() without reading any session's messages", async () => {
    const entries = Array.from({ length: 100_000 }, (_, index) => ({
      sessionId: `s-${index}`,
      createdAt: index,
      accessedAt: index,
      messageCount: 2,
    }));
    let reads = 0;
    const store = {
      ...new InMemoryStore(),
      getMessages: async () => {
        reads++;
        return [];
      },
      setMessages: async () => {},
      clearMessages: async () => {},
      getFacts: async () => [],
      setFact: async () => {},
      deleteFact: async () => {},
      entries: async () => entries,
    };
    const handler = createInspectorHandler({ store, token });
    const page = await (await get(handler, "/api/sessions?offset=50&limit=50", withToken)).json();
    expect(page.total).toBe(100_000);
    expect(page.sessions.map((entry: { sessionId: string }) => entry.sessionId).slice(0, 2)).toEqual([
      "s-99949",
      "s-99948",
    ]);
    const searched = await (await get(handler, "/api/sessions?q=s-4242", withToken)).json();
    expect(searched.total).toBe(11); // s-4242 and s-42420 … s-42429
    expect(reads).toBe(0);
  });

  it("returns a session's context reports, summaries and facts per scope", async () => {
    const store = new InMemoryStore();
    await store.appendMessages("s", [{ id: "u1", role: "user", content: "hi" }]);
    await store.setFact("session:s", { key: "name", value: "Ada", createdAt: 1, updatedAt: 1 });
    await store.setFact("user:42", { key: "city", value: "Lyon", createdAt: 1, updatedAt: 1 });
    const report = { id: "r1", sessionId: "s", userId: "42", window: ["u1"], leftOut: [] } as unknown as ContextReport;
    await store.saveContextReport("s", report);
    const body = await (await get(createInspectorHandler({ store, token }), "/api/session?id=s", withToken)).json();
    expect(body.reports).toEqual([report]);
    expect(body.facts).toEqual([
      { scope: "session:s", facts: [expect.objectContaining({ key: "name", value: "Ada" })] },
      { scope: "user:42", facts: [expect.objectContaining({ key: "city", value: "Lyon" })] },
    ]);
  });

  it("after forget_fact, a session's detail holds the fact's key in its reports, its value nowhere", async () => {
    const secret = "value-to-forget-0042";
    const call = (name: string, args: object, id: string) => ({ toolCalls: [{ id, name, arguments: args }] });
    const model = new MockLanguageModel({
      responses: [
        call("remember_fact", { key: "code", value: secret }, "c1"),
        { text: "Noted." },
        { text: "Known." },
        call("forget_fact", { key: "code" }, "c2"),
        { text: "Forgotten." },
      ],
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      memoryStore: store,
      enableMemoryTools: true,
      recordContext: true,
      sessionId: "s",
    });
    await agent.run("Remember the code.");
    await agent.run("What is the code?");
    await agent.run("Forget the code.");
    const body = await (await get(createInspectorHandler({ store, token }), "/api/session?id=s", withToken)).json();
    expect(body.reports.some((report: ContextReport) => report.facts.some((fact) => fact.key === "code"))).toBe(true);
    expect(body.facts).toEqual([{ scope: "session:s", facts: [] }]);
    // The tool calls' messages say what was remembered; the reports, summaries and facts do not.
    expect(JSON.stringify([body.reports, body.summaries, body.facts])).not.toContain(secret);
  });

  it("asks the provider what it would recall for a query, with its scores", async () => {
    const asked: unknown[] = [];
    const provider: RecallMemoryProvider = {
      type: "test",
      read: async (options) => {
        asked.push(options);
        return [{ id: "m1", content: "likes <b>tea</b>", score: 0.75 }];
      },
      write: async () => {},
    };
    const handler = createInspectorHandler({ store: new InMemoryStore(), token, provider });
    const response = await get(handler, "/api/recall?session=s&q=drinks&user=42", withToken);
    expect(await response.text()).toBe(
      '{"provider":"test","records":[{"id":"m1","content":"likes \\u003cb>tea\\u003c/b>","score":0.75}]}',
    );
    expect(asked).toEqual([{ sessionId: "s", userId: "42", query: "drinks", limit: 5 }]);
    expect(
      (await get(createInspectorHandler({ store: new InMemoryStore(), token }), "/api/recall?session=s&q=x", withToken))
        .status,
    ).toBe(404);
  });

  it("is read-only unless allowDelete, and a delete needs the page's own header", async () => {
    const store = new InMemoryStore();
    await store.appendMessages("s", [{ id: "u1", role: "user", content: "hi" }]);
    const post = (handler: (request: Request) => Promise<Response>, headers: Record<string, string>) =>
      handler(new Request(`${base}/api/delete?id=s`, { method: "POST", headers: { ...withToken, ...headers } }));
    const readOnly = createInspectorHandler({ store, token });
    expect((await post(readOnly, { "x-agentcore-inspector": "delete" })).status).toBe(403);
    expect((await readOnly(new Request(`${base}/api/sessions`, { method: "PUT", headers: withToken }))).status).toBe(
      405,
    );
    const deleting = createInspectorHandler({ store, token, allowDelete: true });
    expect((await post(deleting, {})).status).toBe(403);
    expect(await store.getMessages("s")).toHaveLength(1);
    expect((await post(deleting, { "x-agentcore-inspector": "delete" })).status).toBe(200);
    expect(await store.getMessages("s")).toEqual([]);
  });
});
