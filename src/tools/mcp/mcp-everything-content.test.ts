// Tool results with images and structured content from the MCP reference server
// `@modelcontextprotocol/server-everything` (a dev dependency), over stdio: what the store keeps
// and what the model receives (issue 29).
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToolCalls } from "../../../test/helpers/mcp-run";
import type { ImagePart, TextPart } from "../../messages/content-parts";
import { createMCPClient, type MCPClient } from "./index";

const everything = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-everything/package.json");
const serverScript = join(dirname(everything), "dist/index.js");

let mcp: MCPClient;
beforeAll(async () => {
  mcp = await createMCPClient({
    transport: { type: "stdio", command: process.execPath, args: [serverScript, "stdio"], stderr: "ignore" },
  });
});
afterAll(() => mcp.close());

describe("server-everything's tool results in the tool message", () => {
  it("get-tiny-image: the PNG is an image part, byte-identical to what the server sent; its text stays text", async () => {
    const sent = await mcp.client.callTool({ name: "get-tiny-image", arguments: {} });
    const image = (sent.content as { type: string; data?: string }[]).find((block) => block.type === "image")!;
    const { toolMessages, model } = await runToolCalls(await mcp.tools(), [{ name: "get-tiny-image", arguments: {} }]);
    const parts = toolMessages[0]!.content as (TextPart | ImagePart)[];
    expect(parts.map((part) => part.type)).toEqual(["text", "image", "text"]);
    expect(parts[1]).toEqual({ type: "image", image: image.data, mediaType: "image/png" });
    expect(Buffer.from(image.data!, "base64").subarray(1, 4).toString()).toBe("PNG");
    // Nothing of the image's base64 reaches the model as text.
    const received = model.calls[1]!.messages.at(-1)!.content as (TextPart | ImagePart)[];
    expect(received).toEqual(parts);
    const text = received.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
    expect(text).not.toContain(image.data!.slice(0, 40));
    expect(text.length).toBeLessThan(200);
  });

  it("get-annotated-message with an image: parts, in the server's order", async () => {
    const { toolMessages } = await runToolCalls(await mcp.tools(), [
      { name: "get-annotated-message", arguments: { messageType: "success", includeImage: true } },
    ]);
    const parts = toolMessages[0]!.content as (TextPart | ImagePart)[];
    expect(parts.map((part) => part.type)).toEqual(["text", "image"]);
    expect(parts[1]).toMatchObject({ type: "image", mediaType: "image/png" });
  });

  it("get-structured-content: the structured content once, not its repeat as text", async () => {
    const { toolMessages } = await runToolCalls(await mcp.tools(), [
      { name: "get-structured-content", arguments: { location: "Chicago" } },
    ]);
    expect(JSON.parse(toolMessages[0]!.content as string)).toEqual({
      temperature: 36,
      conditions: "Light rain / drizzle",
      humidity: 82,
    });
    expect(toolMessages[0]!.content).toBe('{"temperature":36,"conditions":"Light rain / drizzle","humidity":82}');
  });
});
