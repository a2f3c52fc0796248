/**
 * Decodes a `text/event-stream` body (the WHATWG server-sent events format) into the data of its
 * events, one event at a time. Bytes go in as they arrive (`push`); `next()` returns the data of
 * the next complete event, or `undefined` until more bytes come.
 *
 * Linear in the body: the text is decoded once (a streaming `TextDecoder`, so a character split
 * between reads is whole), lines are found with `indexOf`, and the consumed text is dropped once
 * per push, never once per event. Lines end with `\n`, `\r\n` or `\r`; a comment (`:`) and the
 * `id` / `retry` fields are skipped; several `data:` lines join with `\n`; an event without data
 * is not dispatched; an event cut off by the end of the body is dropped (as the spec and the
 * `openai` SDK do).
 */
export class ServerSentEventDecoder {
  private readonly decoder = new TextDecoder();
  private text = "";
  private position = 0;
  /** Index of the next `\r` at or after `position` (-1: none in `text`), so a body without `\r` is scanned once. */
  private carriageReturn = -1;
  private data: string | undefined;
  private event: string | undefined;
  private ended = false;
  private started = false;

  /** The type of the last event `next()` returned (the `event:` field), `undefined` when it had none. */
  lastEvent: string | undefined;

  /** Adds bytes (or text) read from the body. */
  push(chunk: Uint8Array | ArrayBuffer | string): void {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    if (text.length === 0) return;
    // A byte-order mark opens the body at most once (the TextDecoder drops it from bytes, not from text).
    if (!this.started && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    this.started = true;
    this.text = this.position === 0 ? this.text + text : this.text.slice(this.position) + text;
    this.position = 0;
    this.carriageReturn = this.text.indexOf("\r");
  }

  /** The body ended: its last line is read even without a line break (an event still needs the blank line after it). */
  end(): void {
    const rest = this.decoder.decode();
    if (rest) this.push(rest);
    this.ended = true;
  }

  /** The data of the next complete event, or `undefined` when none is complete yet. */
  next(): string | undefined {
    for (;;) {
      const line = this.nextLine();
      if (line === undefined) return undefined;
      if (line.length === 0) {
        const data = this.data;
        this.lastEvent = this.event;
        this.data = this.event = undefined;
        if (data !== undefined) return data;
        continue;
      }
      this.field(line);
    }
  }

  private field(line: string): void {
    if (line.charCodeAt(0) === 58 /* ":" comment */) return;
    const colon = line.indexOf(":");
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = "";
    if (colon !== -1)
      value = line.charCodeAt(colon + 1) === 32 /* " " */ ? line.slice(colon + 2) : line.slice(colon + 1);
    if (name === "data") this.data = this.data === undefined ? value : `${this.data}\n${value}`;
    else if (name === "event") this.event = value;
  }

  /** The next whole line (without its line break), or `undefined` when the text holds no whole line. */
  private nextLine(): string | undefined {
    const text = this.text;
    const start = this.position;
    if (start >= text.length) return undefined;
    const newline = text.indexOf("\n", start);
    let end: number;
    let after: number;
    if (this.carriageReturn !== -1 && this.carriageReturn < start) this.carriageReturn = text.indexOf("\r", start);
    const carriageReturn = this.carriageReturn;
    if (carriageReturn !== -1 && (newline === -1 || carriageReturn < newline)) {
      // `\r\n` or a lone `\r`: a `\r` last in the text may be the first half of a `\r\n` still to come.
      if (carriageReturn === text.length - 1 && !this.ended) return undefined;
      end = carriageReturn;
      after = text.charCodeAt(carriageReturn + 1) === 10 ? carriageReturn + 2 : carriageReturn + 1;
    } else if (newline !== -1) {
      end = newline;
      after = newline + 1;
    } else {
      // No line break left: at the end of the body the rest is the last line, otherwise wait for more.
      if (!this.ended) return undefined;
      end = after = text.length;
    }
    this.position = after;
    return text.slice(start, end);
  }
}
