import { describe, expect, it } from "vitest";
import { gifHeader, jpegHeader, pngHeader, webpHeader } from "../messages/__fixtures__/image-headers";
import { encodeBase64 } from "../messages/base64";
import type { AgentMessage } from "../messages/agent-message";
import { TokenWindowMemory } from "../strategies/token-window";
import { estimateMessagesTokens } from "./estimate-tokens";
import { DEFAULT_FILE_TOKENS, PDF_PAGE_TOKENS, filePartTokens } from "./file-tokens";
import { DEFAULT_IMAGE_TOKENS, anthropicImageTokens, imagePartTokens, openAIImageTokens } from "./image-tokens";

describe("image tokens", () => {
  it("follows OpenAI's published tile examples", () => {
    expect(openAIImageTokens(1024, 1024)).toBe(765); // 768×768: 4 tiles
    expect(openAIImageTokens(2048, 4096)).toBe(1105); // 1024×2048, then 768×1536: 6 tiles
    expect(openAIImageTokens(512, 512)).toBe(255); // 1 tile
    expect(openAIImageTokens(100, 100)).toBe(255); // never scaled up
    expect(openAIImageTokens(768, 2048)).toBe(1445); // the most any image costs
  });

  it("follows Anthropic's published examples, scaled to a 1568 long side and capped near 1,600", () => {
    expect(anthropicImageTokens(200, 200)).toBe(54);
    expect(anthropicImageTokens(1000, 1000)).toBe(1334);
    expect(anthropicImageTokens(1092, 1092)).toBe(1590);
    expect(anthropicImageTokens(4000, 3000)).toBe(1600);
  });

  it("reads each format's size, with a default at least as large as either rule's largest image", () => {
    expect(imagePartTokens({ type: "image", image: pngHeader(1024, 1024) })).toEqual({ openai: 765, anthropic: 1399 });
    expect(imagePartTokens({ type: "image", image: jpegHeader(200, 200, 20_000) })).toEqual({
      openai: 255,
      anthropic: 54,
    });
    expect(imagePartTokens({ type: "image", image: encodeBase64(gifHeader(200, 200)) }).anthropic).toBe(54);
    expect(imagePartTokens({ type: "image", image: webpHeader("VP8X", 1000, 1000) }).anthropic).toBe(1334);
    const unknown = { openai: DEFAULT_IMAGE_TOKENS, anthropic: DEFAULT_IMAGE_TOKENS };
    expect(imagePartTokens({ type: "image", image: new URL("https://example.com/a.png") })).toEqual(unknown);
    expect(imagePartTokens({ type: "image", image: new Uint8Array([1, 2, 3]) })).toEqual(unknown);
    expect(DEFAULT_IMAGE_TOKENS).toBeGreaterThanOrEqual(
      Math.max(openAIImageTokens(768, 2048), anthropicImageTokens(9999, 9999)),
    );
  });
});

describe("file tokens", () => {
  it("counts PDF pages, text at 4 bytes a token, other files by size, remote files by default", () => {
    const pdf = new TextEncoder().encode(
      "%PDF-1.4\n1 0 obj << /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>\n2 0 obj << /Type /Page >>\n3 0 obj << /Type/Page >>\n",
    );
    expect(filePartTokens({ type: "file", data: pdf, mediaType: "application/pdf" })).toBe(2 * PDF_PAGE_TOKENS);
    expect(filePartTokens({ type: "file", data: encodeBase64(pdf), mediaType: "application/pdf" })).toBe(
      2 * PDF_PAGE_TOKENS,
    );
    expect(filePartTokens({ type: "file", data: new Uint8Array(250 * 1024), mediaType: "application/pdf" })).toBe(
      3 * PDF_PAGE_TOKENS,
    );
    expect(filePartTokens({ type: "file", data: new Uint8Array(4000), mediaType: "text/csv" })).toBe(1000);
    expect(filePartTokens({ type: "file", data: new Uint8Array(10 * 1024 * 1024), mediaType: "audio/mpeg" })).toBe(
      10_240,
    );
    expect(filePartTokens({ type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" })).toBe(
      DEFAULT_FILE_TOKENS,
    );
  });
});

describe("messages with parts", () => {
  it("count text parts as text, reasoning as text, and images by the model's rule", () => {
    const asText: AgentMessage[] = [{ role: "user", content: "Hello there, world" }];
    const asParts: AgentMessage[] = [{ role: "user", content: [{ type: "text", text: "Hello there, world" }] }];
    expect(estimateMessagesTokens(asParts)).toBe(estimateMessagesTokens(asText));
    const withImage: AgentMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "Hello there, world" },
          { type: "image", image: pngHeader(1024, 1024) },
        ],
      },
    ];
    expect(estimateMessagesTokens(withImage, { model: "openai/gpt-4o" })).toBe(estimateMessagesTokens(asText) + 765);
    // Anthropic's rule, and the 1.15 factor of non-OpenAI models over the raw count.
    expect(estimateMessagesTokens(withImage, { model: "anthropic/claude-sonnet-4-5" })).toBe(
      Math.ceil((estimateMessagesTokens(asText) + 1399) * 1.15),
    );
    // Any other model: the larger rule.
    expect(estimateMessagesTokens(withImage, { model: "google/gemini-2.5-pro" })).toBe(
      Math.ceil((estimateMessagesTokens(asText) + 1399) * 1.15),
    );
    const reasoning: AgentMessage[] = [
      { role: "assistant", content: [{ type: "reasoning", text: "Hello there, world" }] },
    ];
    expect(estimateMessagesTokens(reasoning)).toBe(
      estimateMessagesTokens([{ role: "assistant", content: "Hello there, world" }]),
    );
  });
});

describe("windows with images", () => {
  it("fit their budget counting images, and keep each message whole with its parts", () => {
    const history: AgentMessage[] = Array.from({ length: 6 }, (_, index) => [
      {
        id: `u${index}`,
        role: "user" as const,
        content: [
          { type: "text" as const, text: `What is on picture ${index}?` },
          { type: "image" as const, image: pngHeader(1024, 1024), mediaType: "image/png" },
        ],
      },
      { id: `a${index}`, role: "assistant" as const, content: `A cat, number ${index}.` },
    ]).flat();
    const model = { provider: "openai", modelId: "gpt-4o" } as const;
    for (const budget of [900, 2000, 4000]) {
      const window = new TokenWindowMemory({ maxTokens: budget }).apply(history, {
        sessionId: "s",
        model: model as never,
      });
      // Each image turn costs over 765 tokens: text alone would keep every turn within 4000.
      expect(estimateMessagesTokens(window.messages, { model: "openai/gpt-4o" }) - 3).toBeLessThanOrEqual(budget);
      const kept = window.messages.length / 2;
      expect(kept).toBe(Math.floor(budget / 790));
      for (const message of window.messages)
        expect(message).toBe(history.find((original) => original.id === message.id));
    }
  });
});
