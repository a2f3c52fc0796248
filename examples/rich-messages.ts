/**
 * Rich messages: a user message with an image and a PDF, stored byte for byte, counted by the
 * image's size. Runs offline (a scripted model that says what it received); `npx tsx examples/rich-messages.ts`.
 */
import { Agent, InMemoryStore, estimateMessagesTokens, type ImagePart, type LanguageModel } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

// A 1×1 PNG. Real code reads a file (`readFileSync("cat.png")`) or takes a data: URL from a browser.
const png = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (character) => character.charCodeAt(0),
);

const model: LanguageModel = new MockLanguageModel({
  responses: (call) => {
    const last = call.messages.at(-1)!;
    const parts = typeof last.content === "string" ? [] : last.content.map((part) => part.type);
    return { text: `I received: ${parts.join(", ")}.` };
  },
});

const store = new InMemoryStore();
const agent = new Agent({ model, memoryStore: store, sessionId: "photos", messageLimits: { maxPartBytes: 5_000_000 } });

const image: ImagePart = { type: "image", image: png, mediaType: "image/png" };
const result = await agent.run({
  input: [
    { type: "text", text: "What is in this picture, and what does the report say?" },
    image,
    {
      type: "file",
      data: "data:application/pdf;base64,JVBERi0xLjQK",
      mediaType: "application/pdf",
      filename: "report.pdf",
    },
    { type: "image", image: new URL("https://example.com/cat.jpg") }, // passed on, never fetched
  ],
});
console.log(result.text); // I received: text, image, file, image.

const [stored] = await store.getMessages("photos");
const storedImage = typeof stored!.content === "string" ? undefined : stored!.content[1];
console.log(storedImage?.type === "image" && storedImage.image instanceof Uint8Array); // true: bytes, not base64 text
console.log(estimateMessagesTokens([stored!], { model: "openai/gpt-4o" })); // text + 255 (one 512px tile) + the PDF + 1,600 (the URL)
