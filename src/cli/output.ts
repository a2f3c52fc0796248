import pc from "picocolors";

/** Writes for people (tables, colour on a terminal) or for programs (`--json`). */
export interface Output {
  json: boolean;
  line(text?: string): void;
  data(value: unknown): void;
  table(header: string[], rows: string[][]): void;
}

export function createOutput(json: boolean, stream: NodeJS.WritableStream = process.stdout): Output {
  return {
    json,
    line(text = "") {
      stream.write(`${text}\n`);
    },
    data(value) {
      stream.write(`${JSON.stringify(value, null, json ? 0 : 2)}\n`);
    },
    table(header, rows) {
      const widths = header.map((cell, column) =>
        Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)),
      );
      const render = (row: string[]) =>
        row
          .map((cell, column) => cell.padEnd(widths[column]!))
          .join("  ")
          .trimEnd();
      stream.write(`${pc.bold(render(header))}\n`);
      for (const row of rows) stream.write(`${render(row)}\n`);
    },
  };
}

export function formatTime(ms: number | undefined): string {
  if (ms === undefined) return "-";
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}
