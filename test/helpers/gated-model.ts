// A MockLanguageModel whose stream the test lets through a part at a time (stop tests): no sleeps,
// the test waits for the stream to stand at its gate, and sees whether the call's signal fired.
import type { LanguageModel, LanguageModelCall, LanguageModelStreamPart } from "../../src/models/language-model";
import { MockLanguageModel, type MockResponse } from "../../src/testing/mock-language-model";

/** A promise with its resolver, for waiting on conditions. */
function signalled(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export class GatedModel implements LanguageModel {
  readonly provider = "mock";
  readonly modelId = "gated-model";
  readonly mock: MockLanguageModel;
  /** Text deltas the model has sent. */
  sent = "";
  /** The signal of each streamed call, in order. */
  readonly signals: AbortSignal[] = [];
  private allowed: number;
  private delivered = 0;
  private opened = signalled();
  private waiting = signalled();
  private abortedSignal = signalled();

  /** `responses` as MockLanguageModel's; the first `open` text deltas pass, each further one waits for `allow`. */
  constructor(responses: MockResponse[], options: { open: number; chunkSize?: number; ignoreAbort?: boolean }) {
    this.mock = new MockLanguageModel({ responses, chunkSize: options.chunkSize ?? 4 });
    this.allowed = options.open;
    this.ignoreAbort = options.ignoreAbort ?? false;
  }

  private readonly ignoreAbort: boolean;
  /** The stream stands at its gate now. */
  private standing = false;

  doGenerate(call: LanguageModelCall) {
    return this.mock.doGenerate(call);
  }

  /** Resolves when the stream stands at its gate (every part before it read by the run). */
  atGate(): Promise<void> {
    return this.standing ? Promise.resolve() : this.waiting.promise;
  }

  /** Resolves when a streamed call's abort signal fired. */
  aborted(): Promise<void> {
    return this.abortedSignal.promise;
  }

  /** Lets `count` more text deltas through. */
  allow(count: number): void {
    this.allowed += count;
    const opened = this.opened;
    this.opened = signalled();
    opened.resolve();
  }

  async *doStream(call: LanguageModelCall): AsyncIterable<LanguageModelStreamPart> {
    const signal = call.abortSignal;
    if (signal) {
      this.signals.push(signal);
      if (signal.aborted) this.abortedSignal.resolve();
      else signal.addEventListener("abort", () => this.abortedSignal.resolve(), { once: true });
    }
    // The mock's own abort checks are skipped when the model plays one that ignores its signal.
    const { abortSignal: _ignored, ...unsignalled } = call;
    for await (const part of this.mock.doStream(this.ignoreAbort ? unsignalled : call)) {
      if (part.type === "text-delta") {
        while (this.delivered >= this.allowed) {
          const opened = this.opened.promise;
          const waiting = this.waiting;
          this.waiting = signalled();
          this.standing = true;
          waiting.resolve();
          try {
            await (this.ignoreAbort || !signal ? opened : Promise.race([opened, rejectOnAbort(signal)]));
          } finally {
            this.standing = false;
          }
        }
        this.delivered++;
        this.sent += part.delta;
      }
      yield part;
    }
  }
}

function rejectOnAbort(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const fail = () => reject(signal.reason instanceof Error ? signal.reason : new Error("aborted"));
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
}
