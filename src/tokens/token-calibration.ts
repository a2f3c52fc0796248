import type { LanguageModel } from "../models/language-model";

/**
 * Per-model ratio of the input tokens a provider reports to agentcore's estimate of the same
 * request, learnt as requests complete (an exponential moving average, clamped to 0.5–2 so one
 * odd answer cannot wreck budgets). Budgets are checked against `estimate × ratio`.
 */
export class TokenCalibration {
  private readonly ratios = new Map<string, { ratio: number; samples: number }>();

  /** Records one request: our estimate and the provider's reported input tokens. */
  record(model: Pick<LanguageModel, "provider" | "modelId">, estimated: number, reported: number): void {
    if (!(estimated > 0) || !(reported > 0) || !Number.isFinite(reported)) return;
    const key = `${model.provider}/${model.modelId}`;
    const sample = Math.min(2, Math.max(0.5, reported / estimated));
    const current = this.ratios.get(key);
    if (!current) this.ratios.set(key, { ratio: sample, samples: 1 });
    else {
      const weight = Math.max(0.2, 1 / (current.samples + 1));
      this.ratios.set(key, { ratio: current.ratio + (sample - current.ratio) * weight, samples: current.samples + 1 });
    }
  }

  /** The ratio for a model; undefined until a request with reported usage completed. */
  ratio(model: Pick<LanguageModel, "provider" | "modelId">): number | undefined {
    return this.ratios.get(`${model.provider}/${model.modelId}`)?.ratio;
  }
}

/** The calibration every Agent in this process shares (the ratio belongs to the model, not the agent). */
export const sharedTokenCalibration = new TokenCalibration();
