// Random conversation histories for the property tests: 1–300 turns, parallel tool calls,
// multi-step tool loops, empty and huge contents, imported leading messages. Every history keeps
// the pairing rule, as histories do once the agent has loaded (and repaired) them.
import fc from "fast-check";
import type { AgentMessage, AssistantMessage, ToolMessage } from "../../messages/agent-message";

const words = [
  "the",
  "weather",
  "in",
  "Tokyo",
  "is",
  "sunny",
  "user",
  "prefers",
  "TypeScript",
  "ok",
  "42",
  "über",
  "日本",
  "<|endoftext|>",
  "{",
  "}",
  "\n",
];

const text = fc.oneof(
  { weight: 10, arbitrary: fc.constant("") },
  {
    weight: 80,
    arbitrary: fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(" ")),
  },
  {
    weight: 1,
    arbitrary: fc
      .integer({ min: 5_000, max: 30_000 })
      .map((length) => "lorem ipsum dolor sit amet ".repeat(Math.ceil(length / 27)).slice(0, length)),
  },
);

interface TurnShape {
  user: string;
  steps: readonly { calls: { name: string; argument: string; result: string }[]; text: string }[];
  answer: string | undefined;
}

const turnShape: fc.Arbitrary<TurnShape> = fc.record({
  user: text,
  steps: fc.oneof(
    { weight: 3, arbitrary: fc.constant([]) },
    {
      weight: 2,
      arbitrary: fc.array(
        fc.record({
          calls: fc.array(
            fc.record({ name: fc.constantFrom("get_weather", "search", "read_file"), argument: text, result: text }),
            { minLength: 1, maxLength: 3 },
          ),
          text,
        }),
        { minLength: 1, maxLength: 4 },
      ),
    },
  ),
  answer: fc.option(text, { nil: undefined, freq: 8 }),
});

let historyCounter = 0;

/** Builds messages with ids unique across all generated histories (the count cache keys on ids). */
function build(shapes: TurnShape[], leading: string | undefined, system: boolean): AgentMessage[] {
  const nonce = `h${++historyCounter}`;
  let counter = 0;
  const id = () => `${nonce}-${counter++}`;
  const messages: AgentMessage[] = [];
  if (system) messages.push({ id: id(), role: "system", content: "You are a careful assistant.", timestamp: 0 });
  if (leading !== undefined) messages.push({ id: id(), role: "assistant", content: leading, timestamp: 1 });
  shapes.forEach((shape, turnIndex) => {
    messages.push({ id: id(), role: "user", content: shape.user, timestamp: turnIndex });
    for (const step of shape.steps) {
      const assistant: AssistantMessage = {
        id: id(),
        role: "assistant",
        content: step.text,
        toolCalls: step.calls.map((call) => ({
          id: `call-${id()}`,
          name: call.name,
          arguments: { query: call.argument },
        })),
        timestamp: turnIndex,
      };
      messages.push(assistant);
      step.calls.forEach((call, index) => {
        const result: ToolMessage = {
          id: id(),
          role: "tool",
          toolCallId: assistant.toolCalls![index]!.id,
          name: call.name,
          content: call.result,
          timestamp: turnIndex,
        };
        messages.push(result);
      });
    }
    if (shape.answer !== undefined)
      messages.push({ id: id(), role: "assistant", content: shape.answer, timestamp: turnIndex });
  });
  return messages;
}

/** A random valid history of 1–`maxTurns` turns. */
export function arbitraryHistory(options: { maxTurns?: number } = {}): fc.Arbitrary<AgentMessage[]> {
  return fc
    .tuple(
      fc.array(turnShape, { minLength: 1, maxLength: options.maxTurns ?? 300, size: "max" }),
      fc.option(text, { nil: undefined, freq: 6 }),
      fc.boolean(),
    )
    .map(([shapes, leading, system]) => build(shapes, leading, system));
}
