// A tool that returns an image (docs/messages.md, "Tool results with images"): the tool message
// keeps the image as a part, the model receives it as an image, and the UI stream gives it in the
// AI SDK's content output. Runs offline with the scripted MockLanguageModel.
import { Agent, InMemoryStore, tool } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";
import { z } from "zod";

// A 1×1 PNG.
const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

const screenshot = tool({
  description: "Takes a screenshot of the page",
  parameters: z.object({ url: z.string() }),
  execute: async ({ url }) => [
    { type: "text" as const, text: `${url} as it looks now:` },
    { type: "image" as const, image: png, mediaType: "image/png" },
  ],
});

const model = new MockLanguageModel({
  responses: (call) => {
    const last = call.messages.at(-1)!;
    if (last.role !== "tool") return { toolCalls: [{ name: "screenshot", arguments: { url: "https://example.com" } }] };
    const parts = typeof last.content === "string" ? ["text"] : last.content.map((part) => part.type);
    return { text: `The tool gave me: ${parts.join(", ")}.` };
  },
});

const store = new InMemoryStore();
const agent = new Agent({ model, tools: { screenshot }, memoryStore: store, sessionId: "pages", maxSteps: 2 });
const result = await agent.run("What does example.com look like?");
console.log(result.text); // The tool gave me: text, image.

const toolMessage = (await store.getMessages("pages")).find((message) => message.role === "tool")!;
const image = typeof toolMessage.content === "string" ? undefined : toolMessage.content[1];
console.log(image?.type === "image" && image.image instanceof Uint8Array); // true: stored as bytes
