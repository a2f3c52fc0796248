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

  constructor(source: AsyncGenerator<AgentStreamPart, AgentResult>) {
    this.response = this.drive(source);
    this.text = this.response.then((result) => result.text);
    // Reading the result is optional: a failure is still delivered to whoever awaits it.
    this.response.catch(() => {});
    this.text.catch(() => {});
  }

  /** Every part of the run: steps, text deltas, tool calls and results, the finish (or an `error` part). */
  get fullStream(): AsyncIterable<AgentStreamPart> {
    return { [Symbol.asyncIterator]: () => this.iterate(true) };
  }

  /** The text as it is generated, across all steps. Throws the run's error at the end if it failed. */
  get textStream(): AsyncIterable<string> {
    const parts = this.iterate(false);
    return {
      [Symbol.asyncIterator]: () => ({
        next: async (): Promise<IteratorResult<string>> => {
          for (;;) {
            const next = await parts.next();
            if (next.done) return { done: true, value: undefined };
            if (next.value.type === "text-delta") return { done: false, value: next.value.delta };
          }
        },
      }),
    };
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
    const waiting = this.wake;
    this.wake = [];
    for (const resolve of waiting) resolve();
  }

  private async *iterate(errorAsPart: boolean): AsyncGenerator<AgentStreamPart> {
    let index = 0;
    for (;;) {
      if (index < this.parts.length) {
        yield this.parts[index++]!;
        continue;
      }
      if (this.done) {
        if (this.failure) {
          if (errorAsPart) {
            yield { type: "error", error: this.failure.error };
            return;
          }
          throw this.failure.error;
        }
        return;
      }
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }
}
