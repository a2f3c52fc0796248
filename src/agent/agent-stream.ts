import type { AgentResult, AgentStreamPart } from "./agent-result";

/**
 * The streamed run returned by `agent.stream()`. The run starts at once and its parts are
 * buffered, so `textStream`, `fullStream`, `text` and `response` can each be read (and read more
 * than once) in any order.
 */
export class AgentStream {
  private readonly parts: AgentStreamPart[] = [];
  private done = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void)[] = [];

  /** The final result, once the run has finished. Rejects when the run fails or is aborted. */
  readonly response: Promise<AgentResult>;
  /** The text of the last step, once the run has finished. */
  readonly text: Promise<string>;

  /**
   * `source`: the run's parts, or a function that starts the run given a sink (the run then hands
   * its text deltas straight to the sink instead of yielding each through its generators).
   */
  constructor(source: AsyncGenerator<AgentStreamPart, AgentResult> | ((sink: (part: AgentStreamPart) => void) => AsyncGenerator<AgentStreamPart, AgentResult>)) {
    const generator = typeof source === "function" ? source((part) => this.push(part)) : source;
    this.response = this.drive(generator);
    this.text = this.response.then((result) => result.text);
    // Reading the result is optional: a failure is still delivered to whoever awaits it.
    this.response.catch(() => {});
    this.text.catch(() => {});
  }

  /** Every part of the run: steps, text deltas, tool calls and results, the finish (or an `error` part). */
  get fullStream(): AsyncIterable<AgentStreamPart> {
    return { [Symbol.asyncIterator]: () => this.reader((part) => part, true) };
  }

  /** The text as it is generated, across all steps. Throws the run's error at the end if it failed. */
  get textStream(): AsyncIterable<string> {
    return { [Symbol.asyncIterator]: () => this.reader((part) => (part.type === "text-delta" ? part.delta : undefined), false) };
  }

  private async drive(source: AsyncGenerator<AgentStreamPart, AgentResult>): Promise<AgentResult> {
    try {
      for (;;) {
        const next = await source.next();
        if (next.done) return next.value;
        this.push(next.value);
      }
    } catch (error) {
      this.failure = { error };
      throw error;
    } finally {
      this.done = true;
      this.notify();
    }
  }

  private push(part: AgentStreamPart): void {
    this.parts.push(part);
    this.notify();
  }

  private notify(): void {
    if (this.wake.length === 0) return;
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * An iterator over the buffered parts, as `pick` maps them (undefined: skipped). A plain
   * iterator, not an async generator: a part already buffered is answered at once. At the end, a
   * failed run gives an `error` part (`errorAsPart`) or throws its error, once.
   */
  private reader<T>(pick: (part: AgentStreamPart) => T | undefined, errorAsPart: boolean): AsyncIterator<T> {
    let index = 0;
    let finished = false;
    const step = (): IteratorResult<T> | undefined => {
      while (index < this.parts.length) {
        const value = pick(this.parts[index++]!);
        if (value !== undefined) return { done: false, value };
      }
      if (!this.done) return undefined;
      if (finished || !this.failure) {
        finished = true;
        return { done: true, value: undefined };
      }
      finished = true;
      if (errorAsPart) return { done: false, value: pick({ type: "error", error: this.failure.error })! };
      throw this.failure.error;
    };
    return {
      next: () => {
        try {
          const result = step();
          if (result) return Promise.resolve(result);
        } catch (error) {
          return Promise.reject(error);
        }
        return new Promise<IteratorResult<T>>((resolve, reject) => {
          const retry = () => {
            try {
              const result = step();
              if (result) resolve(result);
              else this.wake.push(retry);
            } catch (error) {
              reject(error);
            }
          };
          this.wake.push(retry);
        });
      },
    };
  }
}
