// The Next.js example's script (examples/nextjs-chat/lib/script.ts) played by a loopback
// Anthropic Messages server: the app under test runs with ANTHROPIC_BASE_URL pointing here, so
// its turns go through the real Anthropic adapter and SDK, and the test can read the requests
// the model received (images as image blocks, PDFs as document blocks, thinking sent back).
import { deflateSync, crc32 } from "node:zlib";
import { scriptedAnswer, type ScriptInput } from "../../examples/nextjs-chat/lib/script";
import { FakeLlmServer, type RecordedRequest, type ScriptedResponse } from "../servers/fake-llm-server";
import { anthropicMessage, anthropicStream } from "../servers/wire-formats";

// biome-ignore lint/suspicious/noExplicitAny: the wire JSON as received, read field by field below
type Block = { type: string; [field: string]: any };

/**
 * A slow answer the test controls: a streamed turn whose user message contains `prompt` sends its
 * answer up to the first piece of text, then waits until `open` resolves or the app closes the
 * request (a stop), then sends the rest.
 */
export interface ModelGate {
  prompt: string;
  open: Promise<void>;
}

/** Starts the server; every request is answered by the script, with a signed thinking block first. */
export function startScriptedAnthropic(
  /** While `down` is true the model is out of reach: every request gets a 503 the SDK does not retry. */
  state: { down: boolean; gate?: ModelGate } = { down: false },
): Promise<FakeLlmServer> {
  let calls = 0;
  return FakeLlmServer.start({
    fallback: (request): ScriptedResponse => {
      if (state.down)
        return {
          kind: "json",
          status: 503,
          headers: { "x-should-retry": "false" },
          body: { type: "error", error: { type: "overloaded_error", message: "Overloaded (internal cluster eu-7)" } },
        };
      const input = scriptInputOf(request);
      const answer = scriptedAnswer(input);
      calls++;
      const streamed = (request.body as { stream?: boolean }).stream === true;
      // generateTitle's call is not streamed: it is answered with one JSON message.
      const response = (streamed ? anthropicStream : anthropicMessage)({
        // Usage that differs from answer to answer: the page must show each answer's own.
        usage: {
          inputTokens: Math.ceil(JSON.stringify(request.body).length / 4),
          outputTokens: 1 + Math.ceil(JSON.stringify(answer).length / 4),
        },
        thinking: [{ thinking: answer.reasoning, signature: `signature-${calls}` }],
        ...(answer.text === undefined ? {} : { text: answer.text }),
        toolCalls: (answer.toolCalls ?? []).map((call, index) => ({ id: `toolu_${calls}_${index}`, ...call })),
      });
      const gate = state.gate;
      if (!streamed || !gate || response.kind !== "sse" || !input.text.includes(gate.prompt)) return response;
      // Held after the answer's first text delta: the page shows it, the rest waits for the gate.
      const firstText = response.events.findIndex(
        (event) => (event.data as { delta?: { type?: string } }).delta?.type === "text_delta",
      );
      return { ...response, hold: { after: firstText + 1, until: gate.open } };
    },
  });
}

/**
 * The content blocks of a Messages API message (a string content is one text block), without
 * their prompt-caching breakpoints (`cache_control`): what the model reads, not how it is cached.
 */
export function blocksOf(message: { content: string | Block[] }): Block[] {
  if (typeof message.content === "string") return [{ type: "text", text: message.content }];
  return message.content.map(({ cache_control: _caching, ...block }) => block as Block);
}

/** Whether a request is generateTitle's call (agentcore's title instructions), not a turn of the chat. */
export function isTitleRequest(request: RecordedRequest): boolean {
  const system = (request.body as { system?: string | Block[] }).system;
  const text = typeof system === "string" ? system : (system ?? []).map((block) => block.text).join("\n");
  return text.startsWith("You name conversations");
}

/** The last message of an Anthropic request, as the script reads it. */
function scriptInputOf(request: RecordedRequest): ScriptInput {
  const body = request.body as { system?: string | Block[]; messages: { role: string; content: string | Block[] }[] };
  const system =
    typeof body.system === "string" ? body.system : (body.system ?? []).map((block) => block.text).join("\n");
  const blocks = blocksOf(body.messages.at(-1)!);
  const result = blocks.find((block) => block.type === "tool_result");
  const text = (content: string | Block[]) =>
    blocksOf({ content })
      .filter((block) => block.type === "text")
      .map((block) => block.text)
      .join("");
  // A tool result alone answers the call; one followed by the user's new message (the Anthropic
  // adapter merges them: a call denied by that message, pendingApprovals) is answered as the message.
  if (result && blocks.every((block) => block.type === "tool_result")) {
    const call = body.messages
      .flatMap((message) => blocksOf(message))
      .find((block) => block.type === "tool_use" && block.id === result.tool_use_id);
    return {
      system,
      text: "",
      attachments: [],
      toolResult: { name: call?.name ?? "tool", text: text(result.content) },
    };
  }
  return {
    system,
    text: text(blocks),
    attachments: blocks.flatMap((block): ScriptInput["attachments"] => {
      if (block.type === "image") return [{ kind: "image", mediaType: block.source.media_type }];
      if (block.type === "document")
        return [
          { kind: "file", mediaType: block.source.media_type, ...(block.title ? { filename: block.title } : {}) },
        ];
      return [];
    }),
  };
}

/** A real PNG of `size`×`size` pixels (a diagonal gradient), to upload and show as a thumbnail. */
export function gradientPng(size: number): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3); // filter byte 0, then RGB
    for (let x = 0; x < size; x++) row.set([(79 + (x * 150) / size) | 0, 70, (229 - (y * 150) / size) | 0], 1 + x * 3);
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type, "latin1"), data])));
    return Buffer.concat([length, Buffer.from(type, "latin1"), data, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that says `text`. */
export function tinyPdf(text: string): Buffer {
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${`BT /F1 18 Tf 20 40 Td (${text}) Tj ET`.length} >>\nstream\nBT /F1 18 Tf 20 40 Td (${text}) Tj ET\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, index) => {
    offsets.push(pdf.length);
    pdf += `${index + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, "latin1");
}
