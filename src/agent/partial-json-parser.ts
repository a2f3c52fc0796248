import { type JsonNumberState, nextJsonNumberState } from "./json-number-state";

/** An open object or array: its live value (what it holds so far) and where the reader is in it. */
interface Frame {
  readonly value: Record<string, unknown> | unknown[];
  readonly isArray: boolean;
  /**
   * Expecting what next: in an object a key or the end (after `{` or `,`), `:`, then a value; in
   * an array a value or the end (after `[` or `,`); then `,` or the end.
   */
  expect: "key" | "colon" | "value" | "comma";
  /** In an object: the key whose value is read now (or was last read). */
  key: string;
  /** Entries held (each costs one copy in a snapshot). */
  size: number;
}

type Token =
  | { kind: "string"; isKey: boolean; text: string; escape: string }
  | { kind: "number"; text: string; state: JsonNumberState; validEnd: number; shownEnd: number; placed: boolean }
  | { kind: "literal"; word: string; value: boolean | null; matched: number };

/** Work done by every parser, for tests: characters read and entries copied into snapshots. */
export interface PartialJsonWork {
  characters: number;
  copied: number;
}

const SPACE = /[ \t\n\r]*/y;
const STRING_RUN = /[^"\\]*/y;
/** A whole JSON number, checked once the number has ended. */
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const HEX = /^[0-9a-fA-F]{4}$/;
const NUMBER_CHARACTERS = "-+.eE0123456789";
const FENCE = "```";
const FENCE_LANGUAGE = "json";

/**
 * An incremental reader of a JSON text that arrives in pieces (a streamed answer): `write` each
 * piece, `read` the value so far. Each character is read once: the reader keeps a resumable
 * tokenizer and the stack of open objects and arrays, so the work is linear in the text. The value
 * so far has open strings, arrays and objects closed, a number or `true` / `false` / `null` cut
 * short read as far as it goes, and a key without its value left out. A leading Markdown code
 * fence (```json) is skipped and text after a complete value is ignored; text that is not JSON,
 * or nests objects and arrays deeper than `maxDepth`, makes the reader fail for good (`read`
 * gives `undefined`). Keys are own properties as `JSON.parse` makes them (`"__proto__"` too).
 */
export class PartialJsonParser {
  /** Work of every parser since the process started (tests check it grows linearly). */
  static readonly work: PartialJsonWork = { characters: 0, copied: 0 };

  private readonly maxDepth: number;
  private readonly stack: Frame[] = [];
  private token: Token | undefined;
  /** Before the value: skipping white space and an opening code fence (how much of it matched). */
  private preamble: { ticks: number; language: number; oddSpace: boolean } | undefined = {
    ticks: 0,
    language: 0,
    oddSpace: false,
  };
  private state: "reading" | "done" | "failed" = "reading";
  /** The root value when it is a string, number or literal that has ended. */
  private root: { value: unknown } | undefined;
  /** Something visible changed since the last `read` (beyond an open number's digits). */
  private dirty = false;
  /** The open number's value in the last `read`, when that `read` showed it. */
  private shownNumber: number | undefined;

  constructor(options: { maxDepth?: number } = {}) {
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  }

  /** Whether the text is not JSON, or nests deeper than `maxDepth`: `read` gives `undefined` from then on. */
  get failed(): boolean {
    return this.state === "failed";
  }

  /**
   * Whether `read` may give a new value: something visible changed, or an open number took digits
   * (`1.0` after `1` is the same value: `read` then gives `undefined`).
   */
  get mayHaveChanged(): boolean {
    if (this.state === "failed") return false;
    const token = this.token;
    return this.dirty || (token?.kind === "number" && token.validEnd !== token.shownEnd);
  }

  /** What `read` costs: the entries of the open objects and arrays it copies, and an open number's digits. */
  get readCost(): number {
    let cost = this.stack.length;
    for (const frame of this.stack) cost += frame.size;
    if (this.token?.kind === "number") cost += this.token.text.length;
    return cost;
  }

  /** Reads the next piece of the text. */
  write(text: string): void {
    PartialJsonParser.work.characters += text.length;
    let index = 0;
    if (this.preamble) index = this.skipPreamble(text);
    while (index < text.length && this.state === "reading") index = this.step(text, index);
  }

  /**
   * The value so far when it changed since the last `read` (the first `read`: when there is one),
   * else `undefined`. Objects and arrays still open are copied (shallow); closed ones are shared
   * with the values given before, so treat the values as read-only.
   */
  read(): unknown {
    if (!this.mayHaveChanged) return undefined;
    const token = this.token;
    let child: { value: unknown } | undefined;
    if (token?.kind === "number") {
      token.shownEnd = token.validEnd;
      const value = token.validEnd > 0 ? Number(token.text.slice(0, token.validEnd)) : undefined;
      PartialJsonParser.work.copied += token.text.length;
      if (!this.dirty && value === this.shownNumber) return undefined;
      this.shownNumber = value;
      if (value !== undefined) child = { value };
    } else if (token?.kind === "string" && !token.isKey) child = { value: token.text };
    else if (token?.kind === "literal") child = { value: token.value };
    this.dirty = false;
    if (this.stack.length === 0) return child ? child.value : this.root?.value;
    for (let depth = this.stack.length - 1; depth >= 0; depth--) {
      const frame = this.stack[depth]!;
      PartialJsonParser.work.copied += frame.size + 1;
      // The value being read sits in the last entry (an array) or under `key` (an object).
      if (frame.isArray) {
        const copy = (frame.value as unknown[]).slice();
        if (child) copy[copy.length - 1] = child.value;
        child = { value: copy };
      } else {
        const copy = { ...(frame.value as Record<string, unknown>) };
        if (child) setOwn(copy, frame.key, child.value);
        child = { value: copy };
      }
    }
    return child!.value;
  }

  /** Skips white space and a code fence before the value; the index where the value may start. */
  private skipPreamble(text: string): number {
    const preamble = this.preamble!;
    let index = 0;
    for (; index < text.length; index++) {
      const char = text[index]!;
      if (preamble.ticks < FENCE.length) {
        if (char === "`") preamble.ticks++;
        else if (preamble.ticks > 0) return this.fail(text);
        else if (/\s/.test(char)) {
          // White space other than JSON's is allowed only before a fence.
          if (!" \t\n\r".includes(char)) preamble.oddSpace = true;
        } else if (preamble.oddSpace) return this.fail(text);
        else break;
      } else if (preamble.language < FENCE_LANGUAGE.length) {
        if (char.toLowerCase() === FENCE_LANGUAGE[preamble.language]) preamble.language++;
        else if (preamble.language > 0) return this.fail(text);
        else if (/\s/.test(char)) preamble.language = FENCE_LANGUAGE.length;
        else break;
      } else if (!/\s/.test(char)) break;
    }
    if (index < text.length) this.preamble = undefined;
    return index;
  }

  private fail(text: string): number {
    this.state = "failed";
    return text.length;
  }

  /** Reads from `index` (a token, or one structural character); the index after what it read. */
  private step(text: string, index: number): number {
    const token = this.token;
    if (token?.kind === "string") return this.continueString(token, text, index);
    const char = text[index]!;
    if (token?.kind === "number") {
      if (NUMBER_CHARACTERS.includes(char)) {
        this.addToNumber(token, char);
        return index + 1;
      }
      if (!NUMBER.test(token.text)) return this.fail(text);
      this.token = undefined;
      const value = Number(token.text);
      // Digits not yet shown by `read` that change the value.
      if (token.validEnd !== token.shownEnd && value !== this.shownNumber) this.dirty = true;
      this.end(value);
      return index; // the character after the number is read as structure
    }
    if (token?.kind === "literal") {
      if (char !== token.word[token.matched]) return this.fail(text);
      if (++token.matched === token.word.length) {
        this.token = undefined;
        this.end(token.value);
      }
      return index + 1;
    }
    SPACE.lastIndex = index;
    SPACE.test(text);
    if (SPACE.lastIndex > index) return SPACE.lastIndex;
    const frame = this.stack.at(-1);
    if (frame === undefined) return this.startValue(char, text, index);
    const closing = frame.isArray ? "]" : "}";
    switch (frame.expect) {
      case "comma":
        if (char === ",") frame.expect = frame.isArray ? "value" : "key";
        else if (char === closing) this.close();
        else return this.fail(text);
        return index + 1;
      case "colon":
        if (char !== ":") return this.fail(text);
        frame.expect = "value";
        return index + 1;
      case "key":
        // A key, or the end (after `{`, or a trailing comma, let through).
        if (char === closing) this.close();
        else if (char === '"') this.token = { kind: "string", isKey: true, text: "", escape: "" };
        else return this.fail(text);
        return index + 1;
      default:
        if (frame.isArray && char === closing) {
          this.close();
          return index + 1;
        }
        return this.startValue(char, text, index);
    }
  }

  /** Starts the value at `char`. */
  private startValue(char: string, text: string, index: number): number {
    if (char === "{" || char === "[") {
      if (this.stack.length >= this.maxDepth) return this.fail(text);
      const isArray = char === "[";
      const frame: Frame = { value: isArray ? [] : {}, isArray, expect: isArray ? "value" : "key", key: "", size: 0 };
      this.place(frame.value);
      this.stack.push(frame);
      this.dirty = true;
      return index + 1;
    }
    if (char === '"') {
      this.token = { kind: "string", isKey: false, text: "", escape: "" };
      this.place("");
      this.dirty = true;
      return index + 1;
    }
    if (char === "-" || (char >= "0" && char <= "9")) {
      const token: Token = { kind: "number", text: "", state: "start", validEnd: 0, shownEnd: 0, placed: false };
      this.token = token;
      this.shownNumber = undefined;
      this.addToNumber(token, char);
      return index + 1;
    }
    const literal = LITERALS.find(([word]) => word[0] === char);
    if (literal === undefined) return this.fail(text);
    this.token = { kind: "literal", word: literal[0], value: literal[1], matched: 1 };
    this.place(literal[1]);
    this.dirty = true;
    return index + 1;
  }

  /** Reads string characters from `index`, to the closing quote or the end of the piece. */
  private continueString(token: Extract<Token, { kind: "string" }>, text: string, index: number): number {
    let at = index;
    while (at < text.length) {
      if (token.escape === "") {
        STRING_RUN.lastIndex = at;
        STRING_RUN.test(text);
        if (STRING_RUN.lastIndex > at) {
          token.text += text.slice(at, STRING_RUN.lastIndex);
          if (!token.isKey) this.dirty = true;
          at = STRING_RUN.lastIndex;
          continue;
        }
        const char = text[at++]!;
        if (char === "\\") {
          token.escape = char;
          continue;
        }
        // The closing quote.
        this.token = undefined;
        if (token.isKey) {
          const frame = this.stack.at(-1)!;
          frame.key = token.text;
          frame.expect = "colon";
        } else this.end(token.text);
        return at;
      }
      // An escape is left out of the value until it is whole.
      token.escape += text[at++]!;
      const sequence = token.escape;
      if (sequence.length === 2 && sequence[1] !== "u") {
        const replacement = ESCAPES[sequence[1]!];
        if (replacement === undefined) return this.fail(text);
        token.text += replacement;
        token.escape = "";
      } else if (sequence.length === 6) {
        const hex = sequence.slice(2);
        if (!HEX.test(hex)) return this.fail(text);
        token.text += String.fromCharCode(Number.parseInt(hex, 16));
        token.escape = "";
      } else continue;
      if (!token.isKey) this.dirty = true;
    }
    return at;
  }

  /**
   * Puts a value that has begun into the innermost open object or array: an object or array, held
   * live; a string, number or literal as it is so far, replaced when it ends (so a `read` replaces
   * an entry of its copy, much faster than adding one).
   */
  private place(value: unknown): void {
    const frame = this.stack.at(-1);
    if (frame === undefined) return;
    if (frame.isArray) {
      (frame.value as unknown[]).push(value);
      frame.size++;
    } else {
      setOwn(frame.value as Record<string, unknown>, frame.key, value);
      frame.size++;
    }
  }

  /** A string, number or literal (placed when it began) has ended with `value`. */
  private end(value: unknown): void {
    const frame = this.stack.at(-1);
    if (frame === undefined) {
      this.root = { value };
      this.state = "done";
      return;
    }
    if (frame.isArray) {
      const array = frame.value as unknown[];
      array[array.length - 1] = value;
    } else setOwn(frame.value as Record<string, unknown>, frame.key, value);
    this.afterValue(frame);
  }

  /** Adds a character to the open number; placed at its first digit (`-` alone is no value yet). */
  private addToNumber(token: Extract<Token, { kind: "number" }>, char: string): void {
    token.text += char;
    token.state = nextJsonNumberState(token.state, char);
    if (token.state !== "int" && token.state !== "fraction" && token.state !== "exponent") return;
    token.validEnd = token.text.length;
    if (token.placed) return;
    token.placed = true;
    this.place(Number(token.text));
  }

  private close(): void {
    const frame = this.stack.pop()!;
    const parent = this.stack.at(-1);
    if (parent === undefined) {
      this.root = { value: frame.value };
      this.state = "done";
    } else this.afterValue(parent);
  }

  private afterValue(frame: Frame): void {
    frame.expect = "comma";
    if (!frame.isArray) frame.key = "";
  }
}

/** Sets an own, enumerable data property as `JSON.parse` does: never a setter (`__proto__`) or an inherited property. */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key in Object.prototype)
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true });
  else object[key] = value;
}

const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

const LITERALS: [string, boolean | null][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];
