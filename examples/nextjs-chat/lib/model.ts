/**
 * The model of both routes: a real provider when a key is set, the scripted model otherwise.
 * Imports nothing from Node, so the edge route can use it too.
 */
import { contentText, type LanguageModel } from "agentcore";
import { MockLanguageModel } from "agentcore/testing";

/** "openai/gpt-4o-mini" with OPENAI_API_KEY, "anthropic/…" with ANTHROPIC_API_KEY, else the script. */
export function chatModel(): string | LanguageModel {
  if (process.env.OPENAI_API_KEY) return process.env.CHAT_MODEL ?? "openai/gpt-4o-mini";
  if (process.env.ANTHROPIC_API_KEY) return process.env.CHAT_MODEL ?? "anthropic/claude-3-5-haiku";
  return scriptedModel();
}

/**
 * The offline model: remembers what the user asks it to remember (through remember_fact),
 * calls get_weather for weather questions, and answers from the facts in its system prompt.
 */
function scriptedModel(): MockLanguageModel {
  return new MockLanguageModel({
    chunkSize: 3,
    chunkDelayMs: 5,
    responses: (call) => {
      const last = call.messages.at(-1);
      if (last?.role === "tool") {
        return {
          text:
            last.name === "remember_fact"
              ? "Got it, I will remember that."
              : `Here is the weather: ${contentText(last.content)}`,
        };
      }
      const input = last === undefined ? "" : contentText(last.content);
      const remember = /remember that my (.+?) is (.+?)[.!]?$/i.exec(input);
      if (remember)
        return { toolCalls: [{ name: "remember_fact", arguments: { key: remember[1]!, value: remember[2]! } }] };
      const weather = /weather in ([\p{L} ]+?)\??$/iu.exec(input);
      if (weather) return { toolCalls: [{ name: "get_weather", arguments: { city: weather[1]! } }] };
      const question = /what is my (.+?)\??$/i.exec(input);
      if (question) {
        const key = question[1]!.trim().toLowerCase().replace(/\s+/g, "_");
        const fact = new RegExp(`"${key}": "([^"]*)"`).exec(call.system ?? "");
        return { text: fact ? `Your ${question[1]} is ${fact[1]}.` : `I don't know your ${question[1]} yet.` };
      }
      return { text: `You said: ${input}` };
    },
  });
}
