import type { LanguageModel } from "../models/language-model";

/**
 * Per-model ratio of the input tokens a provider reports to agentcore's estimate of the same
 * request, learnt as requests complete (an exponential moving average, clamped to 0.5–2 so one
 * odd answer cannot wreck budgets). Budgets are checked against `estimate × ratio`.
 *
 * Once a model's ratio rests on `SETTLED_SAMPLES` requests, only one request in
 * `SETTLED_SAMPLE_EVERY` is estimated (`wants`): the estimate tokenizes every message the request
 * holds for the first time, the largest per-turn cost of a short answer, and a settled ratio
 * moves little per sample (its weight is a fifth by then).
 */
export class TokenCalibration {
  private readonly ratios = new Map<string, { ratio: number; samples: number }>();
  private readonly requests = new Map<string, number>();

  /** Whether to estimate this request of `model` for `record` (every request until the ratio settles, then one in `SETTLED_SAMPLE_EVERY`). */
  wants(model: Pick<LanguageModel, "provider" | "modelId">): boolean {
    const key = `${model.provider}/${model.modelId}`;
    if ((this.ratios.get(key)?.samples ?? 0) < SETTLED_SAMPLES) return true;
    const count = (this.requests.get(key) ?? 0) + 1;
    this.requests.set(key, count % SETTLED_SAMPLE_EVERY);
    return count % SETTLED_SAMPLE_EVERY === 0;
  }

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

/** Samples after which a model's ratio counts as settled. */
export const SETTLED_SAMPLES = 16;
/** A settled ratio is sampled on one request in this many. */
export const SETTLED_SAMPLE_EVERY = 4;

/** The calibration every Agent in this process shares (the ratio belongs to the model, not the agent). */
export const sharedTokenCalibration = new TokenCalibration();
