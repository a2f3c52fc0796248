/** A value read from the start of a JSON text; `complete` when the text held all of it. */
interface Read {
  value: unknown;
  complete: boolean;
}

class InvalidJson extends Error {}

/**
 * The value of a JSON text that may be cut off (a streamed answer so far): what is there, with
 * open strings, arrays and objects closed, a number or `true` / `false` / `null` cut short read as
 * far as it goes, and a key without its value left out. `undefined` when the text is not the
 * start of JSON or holds no value yet. A leading Markdown code fence (```json) is skipped, and
 * text after a complete value is ignored.
 */
export function parsePartialJson(text: string): unknown {
  const start = text.match(/^\s*```(?:json)?\s*/i);
  const reader = new PartialJsonReader(start ? text.slice(start[0].length) : text);
  try {
    return reader.value()?.value;
  } catch (error) {
    if (error instanceof InvalidJson) return undefined;
    throw error;
  }
}

class PartialJsonReader {
  private index = 0;

  constructor(private readonly text: string) {}

  /** The value at the cursor; `undefined` when the text ends before any of it. */
  value(): Read | undefined {
    this.skipSpace();
    if (this.atEnd) return undefined;
    const char = this.text[this.index]!;
    if (char === "{") return this.object();
    if (char === "[") return this.array();
    if (char === '"') return this.string();
    if (char === "-" || (char >= "0" && char <= "9")) return this.number();
    return this.literal();
  }

  private get atEnd(): boolean {
    return this.index >= this.text.length;
  }

  private skipSpace(): void {
    while (!this.atEnd && " \t\n\r".includes(this.text[this.index]!)) this.index++;
  }

  private object(): Read {
    const object: Record<string, unknown> = {};
    this.index++; // {
    let expectKey = true;
    for (;;) {
      this.skipSpace();
      if (this.atEnd) return { value: object, complete: false };
      const char = this.text[this.index]!;
      if (char === "}") {
        this.index++;
        return { value: object, complete: true };
      }
      if (char === ",") {
        if (expectKey) throw new InvalidJson();
        this.index++;
        expectKey = true;
        continue;
      }
      if (char !== '"' || !expectKey) throw new InvalidJson();
      const key = this.string();
      if (!key.complete) return { value: object, complete: false };
      this.skipSpace();
      if (this.atEnd) return { value: object, complete: false };
      if (this.text[this.index] !== ":") throw new InvalidJson();
      this.index++;
      const entry = this.value();
      if (entry === undefined) return { value: object, complete: false };
      object[key.value as string] = entry.value;
      if (!entry.complete) return { value: object, complete: false };
      expectKey = false;
    }
  }

  private array(): Read {
    const array: unknown[] = [];
    this.index++; // [
    let expectValue = true;
    for (;;) {
      this.skipSpace();
      if (this.atEnd) return { value: array, complete: false };
      const char = this.text[this.index]!;
      if (char === "]") {
        this.index++;
        return { value: array, complete: true };
      }
      if (char === ",") {
        if (expectValue) throw new InvalidJson();
        this.index++;
        expectValue = true;
        continue;
      }
      if (!expectValue) throw new InvalidJson();
      const item = this.value();
      if (item === undefined) return { value: array, complete: false };
      array.push(item.value);
      if (!item.complete) return { value: array, complete: false };
      expectValue = false;
    }
  }

  private string(): Read {
    const text = this.text;
    let value = "";
    this.index++; // "
    while (!this.atEnd) {
      const char = text[this.index]!;
      if (char === '"') {
        this.index++;
        return { value, complete: true };
      }
      if (char !== "\\") {
        value += char;
        this.index++;
        continue;
      }
      // An escape cut off at the end of the text is left out until it is whole.
      if (this.index + 1 >= text.length) break;
      const escaped = text[this.index + 1]!;
      if (escaped === "u") {
        const hex = text.slice(this.index + 2, this.index + 6);
        if (hex.length < 4) break;
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new InvalidJson();
        value += String.fromCharCode(Number.parseInt(hex, 16));
        this.index += 6;
        continue;
      }
      const replacement = ESCAPES[escaped];
      if (replacement === undefined) throw new InvalidJson();
      value += replacement;
      this.index += 2;
    }
    this.index = text.length;
    return { value, complete: false };
  }

  private number(): Read | undefined {
    const rest = this.text.slice(this.index);
    const whole = rest.match(/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/);
    const taken = rest.match(/^[-+\d.eE]*/)![0];
    this.index += taken.length;
    // Cut off at the end of the text: the number may go on; read the longest valid start of it.
    if (this.atEnd) {
      const start = rest.slice(0, taken.length).match(/^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/);
      return start ? { value: Number(start[0]), complete: false } : undefined;
    }
    if (!whole || whole[0].length !== taken.length) throw new InvalidJson();
    return { value: Number(whole[0]), complete: true };
  }

  private literal(): Read | undefined {
    const rest = this.text.slice(this.index);
    for (const [word, value] of LITERALS) {
      if (rest.startsWith(word)) {
        this.index += word.length;
        return { value, complete: true };
      }
      if (word.startsWith(rest)) {
        this.index = this.text.length;
        return { value, complete: false };
      }
    }
    throw new InvalidJson();
  }
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

const LITERALS: [string, unknown][] = [
  ["true", true],
  ["false", false],
  ["null", null],
];
