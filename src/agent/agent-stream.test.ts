import { describe, expect, it } from "vitest";
import type { AgentResult, AgentStreamPart } from "./agent-result";
import { AgentStream } from "./agent-stream";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
const result = { text: "ab" } as AgentResult;

/** A run that hands text to the sink and yields the other parts, pausing between them. */
function run(fail?: Error) {
  return (sink: (part: AgentStreamPart) => void) =>
    (async function* (): AsyncGenerator<AgentStreamPart, AgentResult> {
      yield { type: "step-start", stepNumber: 1 };
      await tick();
      sink({ type: "text-delta", delta: "a" });
      await tick();
      yield { type: "tool-call", toolCall: { id: "c", name: "t", arguments: {} } };
      await tick();
      sink({ type: "text-delta", delta: "b" });
      await tick();
      if (fail) throw fail;
      return result;
    })();
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<{ values: T[]; error?: unknown }> {
  const values: T[] = [];
  try {
    for await (const value of iterable) values.push(value);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

describe("AgentStream", () => {
  it("gives every reader every part in order, readers waiting side by side and a reader that starts late", async () => {
    const stream = new AgentStream(run());
    const [text, full, text2] = await Promise.all([
      collect(stream.textStream),
      collect(stream.fullStream),
      collect(stream.textStream),
    ]);
    expect(text.values).toEqual(["a", "b"]);
    expect(text2.values).toEqual(["a", "b"]);
    expect(full.values.map((part) => part.type)).toEqual(["step-start", "text-delta", "tool-call", "text-delta"]);
    expect((await collect(stream.textStream)).values).toEqual(["a", "b"]);
    expect(await stream.text).toBe("ab");
  });

  it("ends a failed run with its error: thrown by textStream, an error part in fullStream, once per reader", async () => {
    const failure = new Error("boom");
    const stream = new AgentStream(run(failure));
    const [text, full] = await Promise.all([collect(stream.textStream), collect(stream.fullStream)]);
    expect(text).toEqual({ values: ["a", "b"], error: failure });
    expect(full.error).toBeUndefined();
    expect(full.values.at(-1)).toEqual({ type: "error", error: failure });
    await expect(stream.response).rejects.toBe(failure);
    const late = stream.textStream[Symbol.asyncIterator]();
    expect(await late.next()).toEqual({ done: false, value: "a" });
    expect(await late.next()).toEqual({ done: false, value: "b" });
    await expect(late.next()).rejects.toBe(failure);
    expect(await late.next()).toEqual({ done: true, value: undefined });
  });
});
