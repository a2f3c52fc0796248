// An answer to any model request, in the wire format of the endpoint it came to: OpenAI Chat
// Completions and Responses (JSON or SSE), Anthropic Messages, OpenAI embeddings. Given to
// `FakeLlmServer.start({ fallback })`, it makes one loopback server stand in for every provider a
// document's code may call (test/docs-blocks.test.ts).
import type { RecordedRequest, ScriptedResponse } from "./fake-llm-server";
import {
  anthropicMessage,
  anthropicStream,
  openaiCompletion,
  openaiResponse,
  openaiResponsesStream,
  openaiStream,
} from "./wire-formats";

export function anyModelAnswer(text: string): (request: RecordedRequest) => ScriptedResponse {
  return (request) => {
    const body = request.body ?? {};
    const stream = body.stream === true;
    if (request.path.endsWith("/embeddings")) {
      const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
      // OpenAI's models answer their own length (adapters check it); any other model 8.
      const own: Record<string, number> = { "text-embedding-3-small": 1536, "text-embedding-3-large": 3072 };
      const dimensions = typeof body.dimensions === "number" ? body.dimensions : (own[body.model] ?? 8);
      return {
        kind: "json",
        body: {
          object: "list",
          data: inputs.map((input, index) => ({
            object: "embedding",
            index,
            // A vector that depends on the text, so different inputs are told apart.
            embedding: encode(
              Array.from({ length: dimensions }, (_, slot) => ((String(input).length + slot) % 7) / 7),
              body.encoding_format,
            ),
          })),
          model: body.model ?? "text-embedding-3-small",
          usage: { prompt_tokens: 1, total_tokens: 1 },
        },
      };
    }
    if (request.path.endsWith("/messages")) return stream ? anthropicStream({ text }) : anthropicMessage({ text });
    if (request.path.endsWith("/responses")) return stream ? openaiResponsesStream({ text }) : openaiResponse({ text });
    return stream ? openaiStream({ text }) : openaiCompletion({ text });
  };
}

/** As the openai SDK asks by default: base64 of little-endian float32s; else the numbers. */
function encode(vector: number[], format: unknown): number[] | string {
  if (format !== "base64") return vector;
  return Buffer.from(new Float32Array(vector).buffer).toString("base64");
}
