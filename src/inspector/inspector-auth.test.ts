// Who gets in: every endpoint that reads or changes the store refuses a request without the
// token (header only: no cookie, no query), a malformed credential is a 401 and never a 500, and
// with allowedHosts a request naming another host (DNS rebinding) is refused before anything.
import { describe, expect, it } from "vitest";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import { InMemoryStore } from "../stores/in-memory-store";
import { createInspectorHandler } from "./create-inspector-handler";
import { newInspectorToken, requestToken, sameToken } from "./inspector-auth";

const token = newInspectorToken();
const base = "http://127.0.0.1:4000";
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

/** Every endpoint of the API, as the page calls it. */
const ENDPOINTS: Array<{ method: "GET" | "POST"; path: string }> = [
  { method: "GET", path: "/api/sessions" },
  { method: "GET", path: "/api/session?id=s" },
  { method: "GET", path: "/api/part?session=s&message=0&part=1" },
  { method: "GET", path: "/api/recall?session=s&q=tea" },
  { method: "POST", path: "/api/delete?id=s" },
];

/** A store with one session holding an image, a provider that counts its reads, and a handler that may delete. */
async function setup(options: { authorize?: (request: Request) => boolean } = {}) {
  const store = new InMemoryStore();
  await store.appendMessages("s", [
    {
      id: "u1",
      role: "user",
      content: [
        { type: "text", text: "secret" },
        { type: "image", image: PNG, mediaType: "image/png" },
      ],
    },
  ]);
  const reads: unknown[] = [];
  const provider: RecallMemoryProvider = {
    type: "test",
    read: async (request) => {
      reads.push(request);
      return [{ id: "m1", content: "likes tea" }];
    },
    write: async () => {},
  };
  const handler = createInspectorHandler({ store, token, provider, allowDelete: true, ...options });
  const send = (endpoint: (typeof ENDPOINTS)[number], headers: Record<string, string>) =>
    handler(
      new Request(`${base}${endpoint.path}`, {
        method: endpoint.method,
        headers: { ...(endpoint.method === "POST" ? { "x-agentcore-inspector": "delete" } : {}), ...headers },
      }),
    );
  return { store, reads, send };
}

describe("the inspector's token", () => {
  it.each([
    ["no credential", {}],
    ["a wrong token", { "x-inspector-token": newInspectorToken() }],
    ["the token with a character more", { "x-inspector-token": `${token}0` }],
    ["the token only as a cookie", { cookie: `agentcore_inspector=${token}` }],
    ["a malformed cookie", { cookie: "agentcore_inspector=%E0%A4%A; x=%" }],
    ["a header of other bytes", { "x-inspector-token": "\u00ff".repeat(32) }],
    ["an empty header", { "x-inspector-token": "" }],
  ])("refuses every endpoint with %s: 401, nothing read or deleted", async (_name, headers) => {
    const { store, reads, send } = await setup();
    for (const endpoint of ENDPOINTS) {
      const response = await send(endpoint, headers);
      expect(response.status, `${endpoint.method} ${endpoint.path}`).toBe(401);
      expect(await response.text()).not.toContain("secret");
    }
    expect(reads).toEqual([]);
    expect(await store.getMessages("s")).toHaveLength(1);
  });

  it("refuses the token in the query: a URL's query reaches logs and other servers' Referer", async () => {
    const { send } = await setup();
    for (const endpoint of ENDPOINTS) {
      const path = `${endpoint.path}&token=${token}`;
      expect((await send({ ...endpoint, path }, {})).status, path).toBe(401);
    }
  });

  it("answers every endpoint with the token in its header", async () => {
    const { store, reads, send } = await setup();
    const statuses = [];
    for (const endpoint of ENDPOINTS) statuses.push((await send(endpoint, { "x-inspector-token": token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect(reads).toHaveLength(1);
    expect(await store.getMessages("s")).toEqual([]);
  });

  it("with authorize too, refuses every endpoint that either one rejects", async () => {
    const { reads, send } = await setup({ authorize: (request) => request.headers.get("x-user") === "admin" });
    for (const endpoint of ENDPOINTS) {
      expect((await send(endpoint, { "x-inspector-token": token })).status, endpoint.path).toBe(401);
      expect((await send(endpoint, { "x-user": "admin" })).status, endpoint.path).toBe(401);
    }
    expect(reads).toEqual([]);
  });

  it("reads the header only, and compares it whole", () => {
    const request = (headers: Record<string, string>) => new Request(`${base}/?token=${token}`, { headers });
    expect(requestToken(request({ cookie: `agentcore_inspector=${token}` }))).toBeUndefined();
    expect(requestToken(request({ "x-inspector-token": token }))).toBe(token);
    expect(sameToken(token, token)).toBe(true);
    expect(sameToken(token.slice(0, -1), token)).toBe(false);
    expect(sameToken(undefined, token)).toBe(false);
  });
});

describe("the inspector's allowedHosts", () => {
  const handler = createInspectorHandler({
    store: new InMemoryStore(),
    token,
    allowedHosts: ["127.0.0.1:4000", "localhost:4000"],
  });
  const get = (path: string, headers: Record<string, string>) =>
    handler(new Request(`${base}${path}`, { headers: { "x-inspector-token": token, ...headers } }));

  it("refuses a request naming another host (DNS rebinding) with 421, page and API alike", async () => {
    for (const host of ["evil.example:4000", "127.0.0.1:4001", "127.0.0.1", "localhost.evil.example:4000", ""]) {
      for (const path of ["/", "/assets/app.js", "/api/sessions"]) {
        const response = await get(path, host ? { host } : {});
        expect(response.status, `${host} ${path}`).toBe(421);
        expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
      }
    }
  });

  it("answers the bound names, in any case", async () => {
    for (const host of ["127.0.0.1:4000", "localhost:4000", "LocalHost:4000"])
      expect((await get("/api/sessions", { host })).status, host).toBe(200);
  });

  it("is a list of host names: anything else is a typed error", () => {
    for (const allowedHosts of ["127.0.0.1:4000", [""], [4000]])
      expect(() =>
        createInspectorHandler({ store: new InMemoryStore(), token, allowedHosts: allowedHosts as never }),
      ).toThrow(expect.objectContaining({ name: "InvalidArgumentError", argument: "allowedHosts" }));
  });
});
