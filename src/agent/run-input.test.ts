import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { InvalidMessageError } from "../errors/invalid-message-error";
import { InMemoryStore } from "../stores/in-memory-store";
import { MockLanguageModel } from "../testing/mock-language-model";
import { Agent } from "./agent";

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe("agent.run() input as parts", () => {
  it("sends the parts to the model and stores them, byte for byte", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "A cat." }] });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s" });
    const input = [
      { type: "text" as const, text: "What is this?" },
      { type: "image" as const, image: png, mediaType: "image/png" },
    ];
    const result = await agent.run({ input });
    expect(result.text).toBe("A cat.");
    expect(model.calls[0]!.messages.at(-1)).toMatchObject({ role: "user", content: input });
    const [user] = await store.getMessages("s");
    const stored = (user!.content as { image?: Uint8Array }[])[1]!.image!;
    expect(Array.from(stored)).toEqual(Array.from(png));
  });

  it("streams with parts too, and the string form is unchanged", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "one" }, { text: "two" }] });
    const agent = new Agent({ model });
    await agent.stream({ input: [{ type: "text", text: "hi" }] }).text;
    await agent.run("plain");
    expect(model.calls[0]!.messages.at(-1)!.content).toEqual([{ type: "text", text: "hi" }]);
    expect(model.calls[1]!.messages.at(-1)!.content).toBe("plain");
  });

  it("refuses bad parts with an InvalidMessageError naming the part, before anything is stored", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", messageLimits: { maxPartBytes: 4 } });
    const attempts = [
      [{ type: "video", url: "x" }],
      [{ type: "image", image: "data:image/png;base64,@@@@" }],
      [{ type: "image", image: png }],
    ];
    const errors = [];
    for (const input of attempts) {
      const error = await agent.run({ input: input as never }).catch((caught: unknown) => caught);
      expect(InvalidMessageError.isInstance(error)).toBe(true);
      errors.push((error as Error).message);
    }
    expect(errors[0]).toMatch(/^Invalid input: input part 0\.type: part type "video" is not allowed/);
    expect(errors[1]).toMatch(/input part 0\.image: is a malformed data: URL/);
    expect(errors[2]).toMatch(/input part 0\.image: is 8 bytes, over the part limit of 4 bytes \(maxPartBytes\)/);
    await expect(agent.run({ input: [] })).rejects.toThrow(InvalidArgumentError);
    await expect(agent.run({ input: [{ type: "text", text: "  " }] })).rejects.toThrow(/must not be empty/);
    expect(model.calls).toHaveLength(0);
    expect(await store.getMessages("s")).toEqual([]);
  });

  it("checks messageLimits when the agent is made", () => {
    const model = new MockLanguageModel({ responses: [] });
    expect(() => new Agent({ model, messageLimits: { maxMessageBytes: 0 } })).toThrow(/messageLimits.maxMessageBytes/);
  });

  it("refuses input over maxMessageBytes at the part that passes it: later parts are never read", async () => {
    const model = new MockLanguageModel({ responses: [{ text: "never" }] });
    const store = new InMemoryStore();
    const agent = new Agent({ model, memoryStore: store, sessionId: "s", messageLimits: { maxMessageBytes: 1000 } });
    const dataUrl = `data:image/png;base64,${"A".repeat(800)}`; // 600 bytes decoded
    const input: unknown[] = [
      { type: "text", text: "look" },
      { type: "image", image: dataUrl },
      { type: "image", image: dataUrl }, // 1204 bytes so far: over the limit here
    ];
    let laterReads = 0;
    Object.defineProperty(input, 3, {
      enumerable: true,
      get() {
        laterReads++;
        return { type: "image", image: dataUrl };
      },
    });
    const error = await agent.run({ input: input as never }).catch((caught: unknown) => caught);
    expect(InvalidMessageError.isInstance(error)).toBe(true);
    expect((error as InvalidMessageError).issues[0]).toMatchObject({ index: 0, path: "" });
    expect((error as Error).message).toMatch(/at least 1204 bytes by part 2, over the message limit of 1000 bytes/);
    expect(laterReads).toBe(0);
    expect(model.calls).toHaveLength(0);
    expect(await store.getMessages("s")).toEqual([]);
  });
});
