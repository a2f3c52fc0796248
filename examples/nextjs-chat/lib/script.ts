/**
 * What the offline model answers, as a pure function of the last message: it remembers what the
 * user asks it to remember (remember_fact), calls get_weather for weather questions, answers from
 * the facts in its system prompt, books a table (a tool that asks the user's approval first),
 * rolls a die, describes attachments, titles a conversation (generateTitle's call: its first
 * words), and thinks aloud first (a reasoning part) each time. `lib/model.ts` plays it as a `LanguageModel`; the e2e test plays it from a loopback
 * Anthropic server, so the same script runs through a real provider adapter. Imports nothing.
 */

/** The last message of the conversation, as the script reads it. */
export interface ScriptInput {
  /** The whole system prompt (facts included). */
  system: string;
  /** The user's text (empty when the last message is a tool result). */
  text: string;
  /** The user's attachments: images and files. */
  attachments: { kind: "image" | "file"; mediaType: string; filename?: string }[];
  /** Set when the last message is a tool's result. */
  toolResult?: { name: string; text: string };
}

export interface ScriptAnswer {
  /** What the model thinks first, shown folded in the page. */
  reasoning: string;
  text?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

export function scriptedAnswer(input: ScriptInput): ScriptAnswer {
  const { toolResult } = input;
  // generateTitle's call: agentcore's title instructions, then the user's first message.
  if (input.system.startsWith("You name conversations"))
    return { reasoning: "A title: the message's first words.", text: scriptedTitle(input.text) };
  if (toolResult?.name === "remember_fact")
    return { reasoning: "The fact is saved; I confirm it briefly.", text: "Got it, I will remember that." };
  if (toolResult?.name === "book_table")
    // A denied call's result is the user's reason, as "Error: <reason>" (docs/approvals.md).
    return toolResult.text.startsWith("Error: ")
      ? {
          reasoning: "The user denied the booking; I say so with their reason.",
          text: `I did not book the table. Your reason: ${toolResult.text.slice("Error: ".length)}`,
        }
      : { reasoning: "The booking went through; I confirm it.", text: `Your table is booked: ${toolResult.text}` };
  if (toolResult)
    return {
      reasoning: `${toolResult.name} answered; I pass its result on.`,
      text: `Here is the weather: ${toolResult.text}`,
    };

  const text = input.text.trim();
  if (input.attachments.length > 0) {
    const described = input.attachments
      .map((attachment) =>
        attachment.kind === "image"
          ? `an image (${attachment.mediaType})`
          : `a file ${attachment.filename ?? ""} (${attachment.mediaType})`.replace("  ", " "),
      )
      .join(" and ");
    return {
      reasoning: `The user sent ${input.attachments.length} attachment(s); I say what I received.`,
      text: `I received ${described}.${text ? ` You wrote: ${text}` : ""}`,
    };
  }
  const remember = /remember that my (.+?) is (.+?)[.!]?$/i.exec(text);
  if (remember)
    return {
      reasoning: `The user states their ${remember[1]}: a lasting preference, so I save it with remember_fact.`,
      toolCalls: [{ name: "remember_fact", arguments: { key: remember[1]!, value: remember[2]! } }],
    };
  const weather = /weather in ([\p{L} ]+?)\??$/iu.exec(text);
  if (weather)
    return {
      reasoning: `A weather question about ${weather[1]}: I call get_weather.`,
      toolCalls: [{ name: "get_weather", arguments: { city: weather[1]! } }],
    };
  const booking = /book a table for (\d+) at ([\w: ]+?)[.!]?$/i.exec(text);
  if (booking)
    return {
      reasoning: `A booking for ${booking[1]} at ${booking[2]}: book_table asks the user first.`,
      toolCalls: [{ name: "book_table", arguments: { guests: Number(booking[1]), time: booking[2]! } }],
    };
  if (/^roll a die\b/i.test(text)) {
    // Random, so that the page's Regenerate button gives another answer.
    return { reasoning: "A die roll: any of 1 to 6.", text: `You rolled a ${1 + Math.floor(Math.random() * 6)}.` };
  }
  const question = /what is my (.+?)\??$/i.exec(text);
  if (question) {
    const key = question[1]!.trim().toLowerCase().replace(/\s+/g, "_");
    const fact = new RegExp(`"${key}": "([^"]*)"`).exec(input.system);
    return {
      reasoning: fact ? `My facts hold ${key}; I answer from them.` : `No fact named ${key} yet.`,
      text: fact ? `Your ${question[1]} is ${fact[1]}.` : `I don't know your ${question[1]} yet.`,
    };
  }
  return { reasoning: "Nothing to look up; I echo the message.", text: `You said: ${text}` };
}

/** The title the script gives a conversation: its first message's first six words, or "Attachments". */
export function scriptedTitle(text: string): string {
  const words = text.trim().split(/\s+/).filter(Boolean).slice(0, 6).join(" ");
  return words.replace(/[.!?,;:]+$/, "") || "Attachments";
}
