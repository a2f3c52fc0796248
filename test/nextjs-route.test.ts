// Drives the Next.js route example as Next.js would: Request in, Response out.
import { describe, expect, it } from "vitest";
import { GET, POST } from "../examples/nextjs/route";
import { signSession } from "../examples/nextjs/shared";
import { convertToModelMessages } from "../src/ui/convert-to-model-messages";

const cookie = `chat_session=${signSession("thread-1", "user-42")}`;

function post(messages: unknown, headers: Record<string, string> = { cookie }) {
  return POST(
    new Request("http://localhost/api/chat", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ messages }),
    }),
  );
}

describe("examples/nextjs/route.ts", () => {
  it("refuses requests without a valid signed session", async () => {
    expect((await post([], {})).status).toBe(401);
    expect((await post([], { cookie: "chat_session=eyJzZXNzaW9uSWQiOiJ4In0.forged" })).status).toBe(401);
  });

  it("answers malformed messages with 400", async () => {
    const response = await post([{ id: "1", role: "user", parts: [{ type: "text", text: 5 }] }]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/parts\.0\.text/);
  });

  it("streams a tool-using answer, stores it, and serves the history back", async () => {
    const response = await post([{ id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Oslo?" }] }]);
    expect(response.headers.get("x-vercel-ai-ui-message-stream")).toBe("v1");
    const chunks = (await response.text())
      .split("\n\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice("data: ".length)) as { type: string; delta?: string });
    expect(chunks.some((chunk) => chunk.type === "tool-output-available")).toBe(true);
    const text = chunks.flatMap((chunk) => (chunk.type === "text-delta" ? [chunk.delta] : [])).join("");
    expect(text).toBe('Here is the weather: {"city":"Oslo","temperature":"22°C","condition":"Sunny"}');

    const history = await GET(new Request("http://localhost/api/chat", { headers: { cookie } }));
    const uiMessages = (await history.json()) as unknown[];
    expect(uiMessages).toHaveLength(2);
    const back = convertToModelMessages(uiMessages);
    expect(back.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
  });
});

describe("examples/nextjs/route.ts: the Stop button (DELETE)", () => {
  it("stops the signed session's running turn, and is a no-op without one", async () => {
    const { InMemoryStore } = await import("../src/stores/in-memory-store");
    const { GatedModel } = await import("./helpers/gated-model");
    const { createChatHandlers } = await import("../examples/nextjs/route");
    const model = new GatedModel([{ text: "A long answer the user stops." }], { open: 2 });
    const handlers = createChatHandlers({ memoryStore: new InMemoryStore(), model: () => model });
    const stop = (headers: Record<string, string> = { cookie }) =>
      handlers.DELETE(new Request("http://localhost/api/chat", { method: "DELETE", headers }));
    expect((await stop({})).status).toBe(401);
    expect((await stop()).status).toBe(204); // nothing running: nothing happens
    const response = await handlers.POST(
      new Request("http://localhost/api/chat", {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Talk" }] }] }),
      }),
    );
    const body = response.text();
    await model.atGate();
    expect((await stop()).status).toBe(204);
    expect(await body).toContain('"type":"finish"');
    const history = (await (
      await handlers.GET(new Request("http://localhost/api/chat", { headers: { cookie } }))
    ).json()) as { role: string; parts: { type: string; text?: string }[] }[];
    expect(history.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(history[1]!.parts.filter((part) => part.type === "text").map((part) => part.text)).toEqual(["A long a"]);
  });
});
