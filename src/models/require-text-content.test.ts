import { describe, expect, it } from "vitest";
import { InvalidMessageError } from "../errors/invalid-message-error";
import type { AgentMessage } from "../messages/agent-message";
import { convertToAISDKPrompt } from "./ai-sdk/convert-to-ai-sdk-prompt";
import { convertToAnthropicMessages } from "./anthropic/convert-to-anthropic-messages";
import { convertToOpenAIMessages } from "./openai/convert-to-openai-messages";

const converters = {
  openai: (messages: AgentMessage[]) => convertToOpenAIMessages(undefined, messages),
  anthropic: (messages: AgentMessage[]) => convertToAnthropicMessages(undefined, messages),
  "ai-sdk": (messages: AgentMessage[]) => convertToAISDKPrompt(undefined, messages),
};

describe("provider adapters and content parts (text only for now)", () => {
  for (const [provider, convert] of Object.entries(converters)) {
    it(`${provider}: sends text parts as the text a string would be`, () => {
      const asParts = convert([
        {
          role: "user",
          content: [
            { type: "text", text: "Hello, " },
            { type: "text", text: "world" },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "Hi" }] },
      ]);
      const asString = convert([
        { role: "user", content: "Hello, world" },
        { role: "assistant", content: "Hi" },
      ]);
      expect(asParts).toEqual(asString);
    });

    it(`${provider}: refuses image, file and reasoning parts with a typed error naming the part, never drops them`, () => {
      const cases: [AgentMessage[], number, string][] = [
        [
          [
            {
              role: "user",
              content: [
                { type: "text", text: "a" },
                { type: "image", image: "AAAA" },
              ],
            },
          ],
          0,
          "content.1",
        ],
        [[{ role: "user", content: [{ type: "file", data: "AAAA", mediaType: "application/pdf" }] }], 0, "content.0"],
        [
          [
            { role: "user", content: "q" },
            { role: "assistant", content: [{ type: "reasoning", text: "think" }] },
          ],
          1,
          "content.0",
        ],
      ];
      for (const [messages, index, path] of cases) {
        try {
          convert(messages);
          expect.unreachable();
        } catch (error) {
          expect(InvalidMessageError.isInstance(error)).toBe(true);
          expect((error as InvalidMessageError).issues).toEqual([
            { index, path, message: expect.stringContaining(`not yet supported by the ${provider} provider adapter`) },
          ]);
        }
      }
    });
  }
});
