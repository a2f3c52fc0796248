import { describe, expect, it } from "vitest";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import { anthropic, createAnthropic } from "./anthropic/anthropic-provider";
import { ANTHROPIC_MODEL_ALIASES } from "./anthropic/anthropic-model-ids";
import { createOpenAI, openai } from "./openai/openai-provider";

describe("provider factories take AgentLIB's { model } as well as a model id", () => {
  it("openai({ model }) builds the same model as openai(id)", () => {
    // The AgentLIB document's SummarizingMemory example: summaryModel: openai({ model: 'gpt-3.5-turbo' })
    const model = openai({ model: "gpt-3.5-turbo" });
    expect(model.modelId).toBe("gpt-3.5-turbo");
    expect(model.provider).toBe("openai");
    expect(openai("gpt-4o").modelId).toBe("gpt-4o");
    expect(createOpenAI({ apiKey: "sk" }).chat({ model: "gpt-4o" }).modelId).toBe("gpt-4o");
  });

  it("anthropic({ model }) resolves aliases as anthropic(id) does", () => {
    expect(anthropic({ model: "claude-3-5-sonnet" }).modelId).toBe(ANTHROPIC_MODEL_ALIASES["claude-3-5-sonnet"]);
    expect(createAnthropic({ apiKey: "k" }).messages({ model: "claude-opus" }).modelId).toBe(
      anthropic("claude-opus").modelId,
    );
  });

  it("refuses anything else with a typed error naming the two forms", () => {
    expect(() => openai({} as never)).toThrow(InvalidArgumentError);
    expect(() => openai({ name: "gpt-4o" } as never)).toThrow(
      /openai\("model-id"\) or openai\(\{ model: "model-id" \}\)/,
    );
    expect(() => anthropic(42 as never)).toThrow(InvalidArgumentError);
  });
});
