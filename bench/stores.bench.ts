import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { FileMemoryStore, InMemoryStore, type AgentMessage, type MemoryStore } from "agentcore";
import { SqliteMemoryStore } from "agentcore/sqlite";
import { collectGarbage, formatSample, measure, table, type Benchmark } from "./harness";
import { serverStoreCandidates } from "./store-candidates";

const TAIL = 20;

interface Candidate {
  name: string;
  open(): Promise<{ store: MemoryStore; close(): Promise<void> } | string>;
}

function message(index: number, label = "m"): AgentMessage {
  return {
    id: `${label}${index}`,
    role: index % 2 === 0 ? "user" : "assistant",
    content: `message number ${index}: a sentence or two of ordinary chat text, about the length of a real turn.`,
    timestamp: 1_700_000_000_000 + index,
  };
}

const candidates = (directory: string): Candidate[] => [
  { name: "InMemoryStore", open: async () => ({ store: new InMemoryStore(), close: async () => {} }) },
  {
    name: "FileMemoryStore (fsync)",
    open: async () => ({
      store: new FileMemoryStore(join(directory, `file-${Math.random()}.json`)),
      close: async () => {},
    }),
  },
  {
    name: "FileMemoryStore (fsync: false)",
    open: async () => ({
      store: new FileMemoryStore({ path: join(directory, `file-${Math.random()}.json`), fsync: false }),
      close: async () => {},
    }),
  },
  {
    name: "SqliteMemoryStore (WAL, synchronous full)",
    open: async () => {
      const store = new SqliteMemoryStore({
        database: new BetterSqlite3(join(directory, `sqlite-${Math.random()}.db`)),
      });
      return { store, close: async () => void store.database.close() };
    },
  },
  {
    name: "SqliteMemoryStore (WAL, synchronous normal)",
    open: async () => {
      const store = new SqliteMemoryStore({
        database: new BetterSqlite3(join(directory, `sqlite-${Math.random()}.db`)),
        synchronous: "normal",
      });
      return { store, close: async () => void store.database.close() };
    },
  },
  ...serverStoreCandidates,
];

/** One turn's store cost: append a 2-message turn, then read the recent tail, as the agent does per turn. */
export const benchmark: Benchmark = {
  title: "Stores: one turn's store cost by stored history size",
  async run({ quick }) {
    const sizes = quick ? [100, 1_000] : [100, 10_000, 100_000];
    const runs = quick ? 5 : 30;
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-stores-"));
    const rows: string[][] = [];
    const tailRows: string[][] = [];
    try {
      for (const candidate of candidates(directory)) {
        const row = [candidate.name];
        const tailRow = [candidate.name];
        for (const size of sizes) {
          const opened = await candidate.open();
          if (typeof opened === "string") {
            row.push(opened);
            tailRow.push(opened);
            continue;
          }
          const { store, close } = opened;
          try {
            for (let start = 0; start < size; start += 1_000) {
              await store.appendMessages!(
                "bench",
                Array.from({ length: Math.min(1_000, size - start) }, (_, index) => message(start + index)),
              );
            }
            let turn = 0;
            collectGarbage();
            const sample = await measure(
              async () => {
                turn += 1;
                await store.appendMessages!("bench", [message(turn * 2, "t"), message(turn * 2 + 1, "t")]);
                const { messages } = await store.getMessageTail!("bench", TAIL);
                if (messages.length !== TAIL)
                  throw new Error(`${candidate.name} returned ${messages.length} tail messages`);
              },
              { runs, warmup: quick ? 1 : 5 },
            );
            row.push(formatSample(sample));
            tailRow.push(await measureTail(candidate.name, store, { runs, warmup: quick ? 1 : 5 }));
          } finally {
            await close();
          }
        }
        rows.push(row);
        tailRows.push(tailRow);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    return [
      `Per turn: \`appendMessages\` of a 2-message turn, then \`getMessageTail(sessionId, ${TAIL})\`, on a session already holding N messages (seeded in batches of 1,000). File and SQLite stores on a local disk, with and without an fsync per write; Redis and PostgreSQL on this machine over loopback. Median (p10–p90) of ${runs} turns.`,
      "",
      table(["store", ...sizes.map((size) => `${size.toLocaleString("en-US")} stored`)], rows),
      "",
      `The read alone, as the built-in windows do it: \`getMessageTail(sessionId, ${TAIL})\` (the last ${TAIL} messages and the session's size, one snapshot), on the same sessions after the turns above. Median (p10–p90) of ${runs} reads.`,
      "",
      table(["store", ...sizes.map((size) => `${size.toLocaleString("en-US")} stored`)], tailRows),
    ].join("\n");
  },
};

/** Times the tail read alone, checking the size it reports against the whole history. */
async function measureTail(
  name: string,
  store: MemoryStore,
  options: { runs: number; warmup: number },
): Promise<string> {
  const expected = (await store.getMessages("bench")).length;
  const sample = await measure(async () => {
    const { messages, total } = await store.getMessageTail!("bench", TAIL);
    if (messages.length !== TAIL || total !== expected)
      throw new Error(
        `${name} returned ${messages.length} tail messages of ${total} (expected ${TAIL} of ${expected})`,
      );
  }, options);
  return formatSample(sample);
}
