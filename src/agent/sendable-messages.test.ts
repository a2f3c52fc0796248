import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import type { FilePart, ImagePart } from "../messages/content-parts";
import { isInlineData } from "../messages/data-content";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent } from "./agent";

// Issue 46.4: stored history never makes a later run fail. A stored part the current model
// cannot take is sent as a text placeholder; the stored message keeps it.

const inlineOnly = (part: ImagePart | FilePart) => isInlineData(part.type === "image" ? part.image : part.data);
const stored: AgentMessage[] = [
  {
    id: "u1",
    role: "user",
    content: [
      { type: "text", text: "Summarise" },
      { type: "file", data: "https://example.com/report.pdf", mediaType: "application/pdf", filename: "report.pdf" },
      { type: "image", image: "https://example.com/cat.png" },
      { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
    ],
    timestamp: 1,
  },
  { id: "a1", role: "assistant", content: "It says hello.", timestamp: 2 },
];

describe("a stored part the model cannot take", () => {
  it.each(["run", "stream"] as const)("is sent as a text placeholder, and stays stored (%s)", async (mode) => {
    const memoryStore = new InMemoryStore();
    await memoryStore.setMessages("s", stored);
    const model = new MockLanguageModel({ responses: [{ text: "Sure." }], supportsPart: inlineOnly });
    const agent = new Agent({ model, memoryStore, sessionId: "s" });

    const result = mode === "run" ? await agent.run("And now?") : await agent.stream("And now?").response;

    expect(result.text).toBe("Sure.");
    expect(model.calls[0]!.messages.map(({ role, content }) => ({ role, content }))).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Summarise" },
          {
            type: "text",
            text: "[file report.pdf (application/pdf, given by URL) from the user: not sent, mock/mock-model does not take it]",
          },
          {
            type: "text",
            text: "[image (image, given by URL) from the user: not sent, mock/mock-model does not take it]",
          },
          { type: "image", image: "iVBORw0KGgo=", mediaType: "image/png" },
        ],
      },
      { role: "assistant", content: "It says hello." },
      { role: "user", content: "And now?" },
    ]);
    const after = await memoryStore.getMessages("s");
    expect(after.slice(0, 2)).toEqual(stored);
  });

  it("is sent as is to a model that takes it, and a regenerate answers it with the placeholder", async () => {
    const memoryStore = new InMemoryStore();
    await memoryStore.setMessages("s", stored.slice(0, 1));
    const open = new MockLanguageModel({ responses: [{ text: "one" }] });
    await new Agent({ model: open, memoryStore, sessionId: "s" }).run({ regenerate: true, sessionId: "s" });
    expect(open.calls[0]!.messages[0]!.content).toEqual(stored[0]!.content);

    const picky = new MockLanguageModel({ responses: [{ text: "two" }], supportsPart: inlineOnly });
    await new Agent({ model: picky, memoryStore, sessionId: "s" }).run({ regenerate: true, sessionId: "s" });
    expect(picky.calls[0]!.messages[0]!.content).toMatchObject([
      { type: "text", text: "Summarise" },
      { type: "text", text: expect.stringMatching(/^\[file report\.pdf .* not sent/) },
      { type: "text", text: expect.stringMatching(/^\[image .* not sent/) },
      { type: "image" },
    ]);
    expect((await memoryStore.getMessages("s"))[0]).toEqual(stored[0]);
  });
});
