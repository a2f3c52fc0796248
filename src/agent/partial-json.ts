import { PartialJsonParser } from "./partial-json-parser";

/**
 * The value of a JSON text that may be cut off (a streamed answer so far): what is there, with
 * open strings, arrays and objects closed, a number or `true` / `false` / `null` cut short read as
 * far as it goes, and a key without its value left out. `undefined` when the text is not the
 * start of JSON or holds no value yet. A leading Markdown code fence (```json) is skipped, and
 * text after a complete value is ignored. Reads a text of any depth without recursion; a stream
 * read piece by piece uses `PartialJsonParser`.
 */
export function parsePartialJson(text: string): unknown {
  const parser = new PartialJsonParser();
  parser.write(text);
  return parser.read();
}
