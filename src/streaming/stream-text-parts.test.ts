import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../messages/agent-message";
import type { FilePart, ImagePart } from "../messages/content-parts";
import { isInlineData } from "../messages/data-content";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { streamText } from "./stream-text";

// Issue 46.4 through streamText: a new message with a part the model cannot take is refused with
// nothing stored; a part the model cannot take in a stateless history goes as a text placeholder.

const inlineOnly = (part: ImagePart | FilePart) => isInlineData(part.type === "image" ? part.image : part.data);
const withRemotePdf: AgentMessage = {
  role: "user",
  content: [
    { type: "text", text: "Summarise" },
    { type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" },
  ],
};

describe("streamText and parts the model cannot take", () => {
  it("refuses the new message before it is stored, however often it is sent", async () => {
    const memoryStore = new InMemoryStore();
    const model = new MockLanguageModel({ responses: [], supportsPart: inlineOnly });
    for (let attempt = 0; attempt < 2; attempt++) {
      const result = streamText({ model, messages: [withRemotePdf], sessionId: "s", memoryStore });
      await expect(result.response).rejects.toMatchObject({ name: "UnsupportedPartError", partIndex: 1 });
    }
    expect(await memoryStore.getMessages("s")).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it("sends such a part of a stateless history as a text placeholder", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "ok" }], supportsPart: inlineOnly });
    const result = streamText({
      model,
      messages: [withRemotePdf, { role: "assistant", content: "Done." }, { role: "user", content: "Thanks" }],
    });
    await result.response;
    expect(model.calls[0]!.messages[0]!.content).toEqual([
      { type: "text", text: "Summarise" },
      {
        type: "text",
        text: "[file (application/pdf, given by URL) from the user: not sent, mock/mock-model does not take it]",
      },
    ]);
  });
});
