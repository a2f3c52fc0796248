// The `pricing` option: what a model's tokens cost, so the usage ledger keeps a cost (docs/threads.md).
import { nonNegativeOption } from "../errors/check-option";
import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { LanguageModelUsage } from "../models/language-model";
import { emptyTotals, type UsageTotals } from "../stores/usage-totals";

/** What one model's tokens cost, per million, in the currency of your choice. */
export interface ModelPrice {
  /** Per million input tokens not read from the prompt cache. */
  inputPerMillion: number;
  /** Per million output tokens (reasoning included). */
  outputPerMillion: number;
  /** Per million input tokens read from the prompt cache. @default inputPerMillion */
  cachedInputPerMillion?: number;
}

/** Prices by model id (`"gpt-4o-mini"`) or by `"provider/model"` (`"openai/gpt-4o-mini"`): the id is looked up first. */
export type ModelPricing = Record<string, ModelPrice>;

/** Who made a model call, for its price. */
export interface PricedModel {
  readonly provider?: string;
  readonly modelId: string;
}

const PRICE_FIELDS = ["inputPerMillion", "outputPerMillion", "cachedInputPerMillion"] as const;

/** Checks the `pricing` option (an `InvalidArgumentError` naming the bad entry or field); returns a frozen copy. */
export function resolvePricing(value: unknown): Readonly<ModelPricing> | undefined {
  if (value === undefined) return undefined;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new InvalidArgumentError({
      argument: "pricing",
      value,
      message: "pricing must be an object of model id → { inputPerMillion, outputPerMillion, cachedInputPerMillion? }.",
    });
  const pricing: ModelPricing = {};
  for (const [model, price] of Object.entries(value)) {
    const argument = `pricing["${model}"]`;
    if (price === null || typeof price !== "object" || Array.isArray(price))
      throw new InvalidArgumentError({
        argument,
        value: price,
        message: `${argument} must be { inputPerMillion, outputPerMillion, cachedInputPerMillion? }.`,
      });
    for (const field of Object.keys(price))
      if (!(PRICE_FIELDS as readonly string[]).includes(field))
        throw new InvalidArgumentError({
          argument: `${argument}.${field}`,
          message: `${argument} has no field "${field}". Its fields are: ${PRICE_FIELDS.join(", ")}.`,
        });
    const given = price as Partial<ModelPrice>;
    for (const field of ["inputPerMillion", "outputPerMillion"] as const)
      if (given[field] === undefined)
        throw new InvalidArgumentError({
          argument: `${argument}.${field}`,
          message: `${argument}.${field} is required.`,
        });
    const inputPerMillion = nonNegativeOption(given.inputPerMillion, `${argument}.inputPerMillion`, 0);
    pricing[model] = Object.freeze({
      inputPerMillion,
      outputPerMillion: nonNegativeOption(given.outputPerMillion, `${argument}.outputPerMillion`, 0),
      cachedInputPerMillion: nonNegativeOption(
        given.cachedInputPerMillion,
        `${argument}.cachedInputPerMillion`,
        inputPerMillion,
      ),
    });
  }
  return Object.freeze(pricing);
}

/** A token count as reported, made safe for the ledger (a missing, negative or non-finite count is 0). */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0;
}

/**
 * One model call's usage as ledger totals (one model call), with its cost when `pricing` prices
 * `model`. Reasoning tokens are read where the usage has them (`reasoningTokens`).
 */
export function ledgerTotals(
  usage: LanguageModelUsage,
  model: PricedModel | undefined,
  pricing: Readonly<ModelPricing> | undefined,
): UsageTotals {
  const totals = emptyTotals();
  totals.inputTokens = count(usage.inputTokens);
  totals.outputTokens = count(usage.outputTokens);
  totals.totalTokens = count(usage.totalTokens);
  totals.cachedInputTokens = Math.min(count(usage.cachedInputTokens), totals.inputTokens);
  totals.reasoningTokens = count((usage as { reasoningTokens?: unknown }).reasoningTokens);
  totals.modelCalls = 1;
  const price =
    pricing && model
      ? (pricing[model.modelId] ?? (model.provider ? pricing[`${model.provider}/${model.modelId}`] : undefined))
      : undefined;
  if (price) {
    const uncached = totals.inputTokens - totals.cachedInputTokens;
    totals.cost =
      (uncached * price.inputPerMillion +
        totals.cachedInputTokens * (price.cachedInputPerMillion ?? price.inputPerMillion) +
        totals.outputTokens * price.outputPerMillion) /
      1_000_000;
  }
  return totals;
}
