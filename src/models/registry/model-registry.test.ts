import { afterEach, describe, expect, it } from "vitest";
import { listProviders, registerProvider, resolveLanguageModel, unregisterProvider } from "./model-registry";
import { MockLanguageModel } from "../../testing/mock-language-model";
import { NoSuchProviderError } from "../../errors/no-such-provider-error";
import { InvalidArgumentError } from "../../errors/invalid-argument-error";

afterEach(() => {
  unregisterProvider("scripted");
});

describe("the provider/model registry", () => {
  it("resolves a registered prefix and passes instances through", () => {
    registerProvider("scripted", (modelId) => new MockLanguageModel({ responses: [], provider: "scripted", modelId }));
    const model = resolveLanguageModel("scripted/model-a/with-slash");
    expect([model.provider, model.modelId]).toEqual(["scripted", "model-a/with-slash"]);
    expect(listProviders()).toContain("scripted");
    const instance = new MockLanguageModel({ responses: [] });
    expect(resolveLanguageModel(instance)).toBe(instance);
  });

  it("lists the known providers when the prefix is unknown", () => {
    registerProvider("scripted", () => new MockLanguageModel({ responses: [] }));
    try {
      resolveLanguageModel("mystery/x");
      expect.unreachable();
    } catch (error) {
      expect(NoSuchProviderError.isInstance(error)).toBe(true);
      expect((error as NoSuchProviderError).availableProviders).toContain("scripted");
      expect((error as Error).message).toContain('"scripted"');
    }
  });

  it("rejects malformed model strings and prefixes", () => {
    for (const bad of ["gpt-4o", "/x", "x/", ""]) {
      expect(() => resolveLanguageModel(bad)).toThrow(expect.objectContaining({ argument: "model" }));
    }
    expect(() => resolveLanguageModel({} as never)).toThrow(/LanguageModel instance/);
    expect(() => registerProvider("a/b", () => new MockLanguageModel({ responses: [] }))).toThrow(
      expect.objectContaining({ argument: "prefix" }),
    );
    expect(InvalidArgumentError.isInstance(new InvalidArgumentError({ argument: "x", message: "m" }))).toBe(true);
  });
});
