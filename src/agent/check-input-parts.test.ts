import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { UnsupportedPartError } from "../errors/unsupported-part-error";
import type { FilePart, ImagePart, UserContentPart } from "../messages/content-parts";
import { isInlineData } from "../messages/data-content";
import { FileMemoryStore } from "../stores/file/file-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent } from "./agent";

// Issue 46.4: a part the model cannot take is refused before anything is stored or sent.

const directory = mkdtempSync(join(tmpdir(), "agentcore-input-parts-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

/** Takes images, and PDFs given inline: like OpenAI Chat Completions. */
const inlinePdfOnly = (part: ImagePart | FilePart) =>
  part.type === "image" || (part.mediaType === "application/pdf" && isInlineData(part.data));
const remotePdf: UserContentPart[] = [
  { type: "text", text: "Summarise this" },
  { type: "file", data: "https://example.com/report.pdf", mediaType: "application/pdf", filename: "report.pdf" },
];
const audio: UserContentPart[] = [
  { type: "text", text: "Transcribe" },
  { type: "file", data: new Uint8Array([1, 2, 3]), mediaType: "audio/wav" },
];

/** Every byte of the store's directory, by file name. */
function snapshot(path: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(path).map((name) => [name, readFileSync(join(path, name)).toString("base64")] as const),
  );
}

let counter = 0;
async function sessionWithOneTurn() {
  const path = join(directory, `store-${counter++}`);
  const memoryStore = new FileMemoryStore(join(path, "sessions.json"));
  const model = new MockLanguageModel({
    responses: (_call, index) => ({ text: `answer ${index}` }),
    supportsPart: inlinePdfOnly,
  });
  const agent = new Agent({ model, memoryStore, sessionId: "s" });
  await agent.run("Hello");
  return { agent, model, memoryStore, path, before: snapshot(path) };
}

describe("a new user message with a part the model cannot take", () => {
  it.each(["run", "stream"] as const)("is refused before anything is stored or sent (%s)", async (mode) => {
    const { agent, model, path, before } = await sessionWithOneTurn();
    const attempt = mode === "run" ? agent.run({ input: remotePdf }) : agent.stream({ input: remotePdf }).response;
    const error = await attempt.catch((thrown: unknown) => thrown);

    expect(UnsupportedPartError.isInstance(error)).toBe(true);
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({
      partIndex: 1,
      partType: "file",
      mediaType: "application/pdf",
      remote: true,
      provider: "mock",
      modelId: "mock-model",
      issues: [{ index: 0, path: "1" }],
    });
    expect((error as Error).message).toMatch(/give its bytes, base64 or a data: URL/);
    expect(model.calls).toHaveLength(1);
    expect(snapshot(path)).toEqual(before);
  });

  it("names a media type the model takes in no form, and refuses it on every later attempt alike", async () => {
    const { agent, model, path, before } = await sessionWithOneTurn();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await agent.run({ input: audio }).catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ name: "UnsupportedPartError", mediaType: "audio/wav", remote: false });
      expect((error as Error).message).toMatch(/leave it out or use a model that takes it/);
    }
    expect(model.calls).toHaveLength(1);
    expect(snapshot(path)).toEqual(before);
    // The session still runs.
    await expect(agent.run("Still there?")).resolves.toMatchObject({ text: "answer 1" });
  });

  it("refuses an edit before it replaces anything", async () => {
    const { agent, model, memoryStore, path, before } = await sessionWithOneTurn();
    const [user] = await memoryStore.getMessages("s");
    const error = await agent.run({ input: remotePdf, replaceFrom: user!.id! }).catch((thrown: unknown) => thrown);
    expect(UnsupportedPartError.isInstance(error)).toBe(true);
    expect(model.calls).toHaveLength(1);
    expect(snapshot(path)).toEqual(before);
  });

  it("lets the parts the model takes through, and any part for a model that declares nothing", async () => {
    const { agent, model } = await sessionWithOneTurn();
    const inline: UserContentPart[] = [
      { type: "text", text: "Read" },
      { type: "file", data: "JVBERi0=", mediaType: "application/pdf" },
      { type: "image", image: "https://example.com/cat.png" },
    ];
    await agent.run({ input: inline });
    expect(model.calls[1]!.messages.at(-1)!.content).toEqual(inline);

    const open = new MockLanguageModel({ responses: [{ text: "ok" }] });
    await new Agent({ model: open }).run({ input: remotePdf });
    expect(open.calls[0]!.messages.at(-1)!.content).toEqual(remotePdf);
  });

  it("waits for a model that answers asynchronously", async () => {
    const model = new MockLanguageModel({ responses: [], supportsPart: async () => false });
    const error = await new Agent({ model }).run({ input: audio }).catch((thrown: unknown) => thrown);
    expect(UnsupportedPartError.isInstance(error)).toBe(true);
    expect(model.calls).toHaveLength(0);
  });
});
