import { InvalidArgumentError } from "../errors/invalid-argument-error";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { partialObjects } from "./partial-objects";

/** An object while it streams: any property may be missing yet, at any depth. */
export type DeepPartial<T> = T extends readonly (infer Item)[]
  ? DeepPartial<Item>[]
  : T extends object
    ? { [Key in keyof T]?: DeepPartial<T[Key]> }
    : T;

/**
 * The streamed run returned by `agent.stream()`. The run starts at once and its parts are
 * buffered, so `textStream`, `fullStream`, `text` and `response` can each be read (and read more
 * than once) in any order.
 */
export class AgentStream<Value = unknown> {
  private readonly buffer = new PartBuffer();
  private objectPromise: Promise<Value> | undefined;

  /** The final result, once the run has finished. Rejects when the run fails or is aborted. */
  readonly response: Promise<AgentResult>;
  /** The text of the last step, once the run has finished. */
  readonly text: Promise<string>;

  /**
   * `source`: the run's parts, or a function that starts the run given a sink (the run then hands
   * its text deltas straight to the sink instead of yielding each through its generators).
   */
  constructor(
    source:
      | AsyncGenerator<AgentStreamPart, AgentResult>
      | ((sink: (part: AgentStreamPart) => void) => AsyncGenerator<AgentStreamPart, AgentResult>),
  ) {
    const buffer = this.buffer;
    const generator = typeof source === "function" ? source((part) => buffer.push(part)) : source;
    this.response = this.drive(generator);
    this.text = this.response.then((result) => result.text);
    // Reading the result is optional: a failure is still delivered to whoever awaits it.
    this.response.catch(() => {});
    this.text.catch(() => {});
  }

  /** Every part of the run: steps, text deltas, tool calls and results, the finish (or an `error` part). */
  get fullStream(): AsyncIterable<AgentStreamPart> {
    return { [Symbol.asyncIterator]: () => new PartReader(this.buffer, anyPart, true) };
  }

  /**
   * A run with `output`: the object as it streams, parsed from the JSON so far (each value
   * differs from the one before; it starts over at each step and at a retry). Not validated: the
   * validated object is `object`. Read-only: partials share the parts that no longer change.
   * Throws the run's error at the end if it failed.
   */
  get partialObjectStream(): AsyncIterable<DeepPartial<Value>> {
    return {
      [Symbol.asyncIterator]: () =>
        new PartReader(
          this.buffer,
          partialObjects() as (part: AgentStreamPart) => DeepPartial<Value> | undefined,
          false,
        ),
    };
  }

  /**
   * A run with `output`: the object, validated, once the run has finished and been stored.
   * Rejects with the run's error (a `NoObjectGeneratedError` when no valid object came), or an
   * `InvalidArgumentError` when the run had no `output`.
   */
  get object(): Promise<Value> {
    this.objectPromise ??= this.response.then((result) => {
      if (!("object" in result)) {
        throw new InvalidArgumentError({
          argument: "output",
          message: "This stream has no object: give the run an `output` schema.",
        });
      }
      return result.object as Value;
    });
    return this.objectPromise;
  }

  /** The text as it is generated, across all steps. Throws the run's error at the end if it failed. */
  get textStream(): AsyncIterable<string> {
    return { [Symbol.asyncIterator]: () => new PartReader(this.buffer, textOf, false) };
  }

  private async drive(source: AsyncGenerator<AgentStreamPart, AgentResult>): Promise<AgentResult> {
    try {
      for (;;) {
        const next = await source.next();
        if (next.done) return next.value;
        this.buffer.push(next.value);
      }
    } catch (error) {
      this.buffer.failure = { error };
      throw error;
    } finally {
      this.buffer.end();
    }
  }
}

/** The parts of a run so far, in order, and the readers waiting for the next one. */
class PartBuffer {
  readonly parts: AgentStreamPart[] = [];
  /** The run has ended (`failure` set if it failed). */
  done = false;
  failure: { error: unknown } | undefined;
  /** Readers waiting for the next part (usually one; most often none when a part comes). */
  private waiting: PartReader<unknown>[] = [];

  push(part: AgentStreamPart): void {
    this.parts.push(part);
    if (this.waiting.length > 0) this.notify();
  }

  end(): void {
    this.done = true;
    this.notify();
  }

  /** A reader found no part to give: `wake` it at the next part or the end. */
  wait(reader: PartReader<unknown>): void {
    this.waiting.push(reader);
  }

  private notify(): void {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    if (waiting.length === 1) {
      // The common case, one reader: no array swapped per part.
      const reader = waiting.pop()!;
      reader.wake();
      return;
    }
    this.waiting = [];
    for (const reader of waiting) reader.wake();
  }
}

const anyPart = (part: AgentStreamPart): AgentStreamPart => part;

const textOf = (part: AgentStreamPart): string | undefined => (part.type === "text-delta" ? part.delta : undefined);

/**
 * An iterator over a stream's buffered parts, as `pick` maps them (undefined: skipped). A plain
 * iterator, not an async generator: a part already buffered is answered at once, and a reader
 * that waits holds one promise, settled by `wake`. At the end, a failed run gives an `error` part
 * (`errorAsPart`) or throws its error, once.
 */
class PartReader<T> implements AsyncIterator<T> {
  private index = 0;
  private finished = false;
  private resolve: ((result: IteratorResult<T>) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;

  constructor(
    private readonly buffer: PartBuffer,
    private readonly pick: (part: AgentStreamPart) => T | undefined,
    private readonly errorAsPart: boolean,
  ) {}

  next(): Promise<IteratorResult<T>> {
    try {
      const result = this.step();
      if (result) return Promise.resolve(result);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise<IteratorResult<T>>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.buffer.wait(this as PartReader<unknown>);
    });
  }

  /** A part came or the run ended: settles the waiting `next()`, or waits again (a part this reader skips). */
  wake(): void {
    const resolve = this.resolve!;
    const reject = this.reject!;
    try {
      const result = this.step();
      if (!result) {
        this.buffer.wait(this as PartReader<unknown>);
        return;
      }
      this.resolve = this.reject = undefined;
      resolve(result);
    } catch (error) {
      this.resolve = this.reject = undefined;
      reject(error);
    }
  }

  private step(): IteratorResult<T> | undefined {
    const { parts } = this.buffer;
    while (this.index < parts.length) {
      const value = this.pick(parts[this.index++]!);
      if (value !== undefined) return { done: false, value };
    }
    if (!this.buffer.done) return undefined;
    const failure = this.buffer.failure;
    if (this.finished || !failure) {
      this.finished = true;
      return { done: true, value: undefined };
    }
    this.finished = true;
    if (this.errorAsPart) return { done: false, value: this.pick({ type: "error", error: failure.error })! };
    throw failure.error;
  }
}
