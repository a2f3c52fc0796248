import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { AgentMessage, UserMessage } from "../messages/agent-message";
import type { TextPart } from "../messages/content-parts";
import { convertToAISDKPrompt } from "../models/ai-sdk/convert-to-ai-sdk-prompt";
import { convertToAnthropicMessages } from "../models/anthropic/convert-to-anthropic-messages";
import { convertToOpenAIMessages } from "../models/openai/convert-to-openai-messages";
import type { RecallMemoryProvider } from "../providers/memory-provider";
import { InMemoryStore } from "../stores/in-memory-store";
import type { IMemoryStrategy } from "../strategies/memory-strategy";
import { MockLanguageModel } from "../testing/mock-language-model";
import { tool } from "../tools/tool";
import { Agent } from "./agent";
import { renderRecalledMemories } from "./system-prompt";
import { withRecalledMemories } from "./with-recalled-memories";

const BLOCK = renderRecalledMemories([{ id: "m1", content: "The user likes green tea." }]);
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** Recalls one memory that names the query, so each turn's block is its own. */
const echoRecall = (writes: AgentMessage[][] = []): RecallMemoryProvider => ({
  type: "echo",
  read: async ({ query }) => [{ id: "m1", content: `User likes </recalled_memories> tea; asked ${query}` }],
  write: async (messages) => {
    writes.push(messages);
  },
});

const lookup = tool({ description: "Look up", parameters: z.object({}), execute: async () => "found" });

describe("withRecalledMemories", () => {
  it("puts the block first in a copy of the user message; the window and the message stay as they are", () => {
    const user: UserMessage = { id: "u2", role: "user", content: "And now?", timestamp: 5 };
    const window: AgentMessage[] = [
      { id: "u1", role: "user", content: "Hi" },
      { id: "a1", role: "assistant", content: "Hello" },
      user,
    ];
    const placed = withRecalledMemories(window, user, BLOCK)!;
    expect(placed.userIndex).toBe(2);
    expect(placed.messages.slice(0, 2)).toEqual(window.slice(0, 2));
    // No id: the copy is not the stored message.
    expect(placed.messages[2]).toEqual({
      role: "user",
      content: [
        { type: "text", text: BLOCK },
        { type: "text", text: "And now?" },
      ],
      timestamp: 5,
    });
    expect(window[2]).toBe(user);
    expect(user.content).toBe("And now?");
  });

  it("keeps image and file parts after the block, and every adapter sends them", () => {
    const user: UserMessage = {
      id: "u1",
      role: "user",
      content: [
        { type: "text", text: "What is on it?" },
        { type: "image", image: PNG, mediaType: "image/png" },
        { type: "file", data: PNG, mediaType: "application/pdf", filename: "a.pdf" },
      ],
    };
    const { messages } = withRecalledMemories([user], user, BLOCK)!;
    expect(messages[0]!.content).toEqual([{ type: "text", text: BLOCK }, ...(user.content as object[])]);
    expect((user.content as object[]).length).toBe(3);

    const anthropic = convertToAnthropicMessages(undefined, messages).messages[0]!.content as { type: string }[];
    expect(anthropic.map((block) => block.type)).toEqual(["text", "text", "image", "document"]);
    const openai = convertToOpenAIMessages(undefined, messages)[0]!.content as { type: string }[];
    expect(openai.map((part) => part.type)).toEqual(["text", "text", "image_url", "file"]);
    const aiSdk = convertToAISDKPrompt(undefined, messages)[0]!.content as { type: string }[];
    expect(aiSdk.map((part) => part.type)).toEqual(["text", "text", "file", "file"]);
  });

  it("leaves the block out of an empty text part, and gives up without a block or a user message in the window", () => {
    const empty: UserMessage = { id: "u1", role: "user", content: "" };
    expect(withRecalledMemories([empty], empty, BLOCK)!.messages[0]!.content).toEqual([{ type: "text", text: BLOCK }]);
    expect(withRecalledMemories([empty], empty, "")).toBeUndefined();
    expect(withRecalledMemories([empty], undefined, BLOCK)).toBeUndefined();
    const other: UserMessage = { id: "u9", role: "user", content: "dropped" };
    expect(withRecalledMemories([empty], other, BLOCK)).toBeUndefined();
  });
});

describe("recalled memories in a run", () => {
  it("ride in the turn's user message of every step, escaped and capped, never in the system prompt or the store", async () => {
    const writes: AgentMessage[][] = [];
    const model = new MockLanguageModel({
      responses: [{ toolCalls: [{ id: "c1", name: "lookup", arguments: {} }] }, { text: "ok" }, { text: "ok again" }],
    });
    const store = new InMemoryStore();
    const agent = new Agent({
      model,
      systemPrompt: "Base.",
      memoryStore: store,
      sessionId: "s",
      tools: { lookup },
      memoryProvider: echoRecall(writes),
    });
    await agent.run("drinks?");
    await agent.run("food?");

    const [step1, step2, turn2] = model.calls;
    for (const call of [step1!, step2!, turn2!]) expect(call.system).toBe("Base.");
    // Both steps of the first run send the same user message: the block, then the question.
    const [block, question] = step1!.messages[0]!.content as TextPart[];
    expect(block!.text.startsWith("<recalled_memories>")).toBe(true);
    expect(block!.text).toContain("User likes &lt;/recalled_memories&gt; tea; asked drinks?");
    expect(block!.text.match(/<\/recalled_memories>/g)).toHaveLength(1);
    expect(question).toEqual({ type: "text", text: "drinks?" });
    expect(step2!.messages[0]).toEqual(step1!.messages[0]);
    expect(step2!.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    // The next turn sends the earlier user message as stored, and its own with its own block.
    const stored = await store.getMessages("s");
    expect(stored.filter((message) => message.role === "user").map((message) => message.content)).toEqual([
      "drinks?",
      "food?",
    ]);
    expect(turn2!.messages[0]).toEqual(stored[0]);
    expect(JSON.stringify(turn2!.messages.slice(0, -1))).not.toContain("recalled_memories");
    expect((turn2!.messages.at(-1)!.content as TextPart[]).map((part) => part.text)).toEqual([
      expect.stringContaining("asked food?"),
      "food?",
    ]);
    // What the provider is given to remember is the stored turn.
    expect(writes[0]![0]!.content).toBe("drinks?");
  });

  it("go to the system prompt when the window leaves the turn's user message out", async () => {
    // A custom strategy that keeps only the session's first exchange.
    const firstExchange: IMemoryStrategy = {
      name: "first-exchange",
      apply: (history) => ({ messages: history.slice(0, 2), dropped: history.slice(2) }),
    };
    const model = new MockLanguageModel({ responses: () => ({ text: "ok" }) });
    const agent = new Agent({
      model,
      systemPrompt: "Base.",
      sessionId: "s",
      memory: firstExchange,
      memoryProvider: echoRecall(),
    });
    await agent.run("first");
    await agent.run("second");
    expect(model.calls[0]!.system).toBe("Base.");
    const [firstBlock] = model.calls[0]!.messages[0]!.content as TextPart[];
    expect(firstBlock!.text).toContain("asked first");

    const [, fallback] = model.calls;
    expect(fallback!.system).toMatch(/^Base\.\n\n<recalled_memories>\n[\s\S]*asked second/);
    expect(fallback!.messages.map((message) => message.content)).toEqual(["first", "ok"]);
  });
});
