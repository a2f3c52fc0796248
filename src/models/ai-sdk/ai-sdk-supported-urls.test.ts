import { describe, expect, it } from "vitest";
import type { FilePart, ImagePart } from "../../messages/content-parts";
import { AISDKLanguageModelAdapter } from "./ai-sdk-language-model";
import type { AISDKLanguageModel } from "./ai-sdk-types";
import { isAISDKUrlSupported } from "./ai-sdk-supported-urls";

const model = (supportedUrls: AISDKLanguageModel["supportedUrls"]) =>
  new AISDKLanguageModelAdapter({
    specificationVersion: "v3",
    provider: "test.chat",
    modelId: "m",
    ...(supportedUrls === undefined ? {} : { supportedUrls }),
    doGenerate: async () => {
      throw new Error("not called");
    },
    doStream: async () => {
      throw new Error("not called");
    },
  });
const remotePdf: FilePart = { type: "file", data: "https://example.com/a.pdf", mediaType: "application/pdf" };
const remoteImage: ImagePart = { type: "image", image: new URL("https://example.com/cat.png") };
const inlineAudio: FilePart = { type: "file", data: new Uint8Array([1]), mediaType: "audio/wav" };

describe("an AI SDK model's supportedUrls", () => {
  it("matches media type patterns as the AI SDK does", () => {
    const urls = { "image/*": [/^https:\/\//], "application/pdf": [/^https:\/\/docs\./] };
    expect(isAISDKUrlSupported(urls, "image/png", "https://x.y/a.png")).toBe(true);
    expect(isAISDKUrlSupported(urls, "IMAGE/PNG", "https://x.y/a.png")).toBe(true);
    expect(isAISDKUrlSupported(urls, "image/png", "http://x.y/a.png")).toBe(false);
    expect(isAISDKUrlSupported(urls, "application/pdf", "https://x.y/a.pdf")).toBe(false);
    expect(isAISDKUrlSupported(urls, "application/pdf", "https://docs.y/a.pdf")).toBe(true);
    expect(isAISDKUrlSupported(urls, "application/pdfx", "https://docs.y/a.pdf")).toBe(false);
    expect(isAISDKUrlSupported({ "*": [/.*/] }, "audio/wav", "https://x.y/a.wav")).toBe(true);
    expect(isAISDKUrlSupported({}, "image/png", "https://x.y/a.png")).toBe(false);
  });

  it("decides which parts the adapter takes: inline always, a remote URL when listed (a promise awaited)", async () => {
    const chat = model({ "image/*": [/^https?:\/\/.*$/] });
    expect(chat.supportsPart(inlineAudio)).toBe(true);
    expect(chat.supportsPart(remoteImage)).toBe(true);
    expect(chat.supportsPart(remotePdf)).toBe(false);
    const lazy = model(Promise.resolve({ "application/pdf": [/^https:/] }));
    await expect(lazy.supportsPart(remotePdf)).resolves.toBe(true);
    await expect(lazy.supportsPart(remoteImage)).resolves.toBe(false);
    // A model that lists nothing (not to spec) gets every part, as before.
    expect(model(undefined).supportsPart(remotePdf)).toBe(true);
  });

  it("takes the settings' supportsPart instead, for what the model does not say", () => {
    const base = model({ "image/*": [/^https?:\/\/.*$/] }).aiSDKModel;
    const declared = new AISDKLanguageModelAdapter(base, { supportsPart: (part) => part.type === "image" });
    expect(declared.supportsPart(inlineAudio)).toBe(false);
    expect(declared.supportsPart(remoteImage)).toBe(true);
    expect(() => new AISDKLanguageModelAdapter(base, { supportsPart: true as never })).toThrow(
      expect.objectContaining({ name: "InvalidArgumentError", argument: "supportsPart" }),
    );
  });
});
