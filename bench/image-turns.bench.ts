import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { FileMemoryStore, InMemoryStore, type AgentMessage, type MemoryStore } from "agentcore";
import { SqliteMemoryStore } from "agentcore/sqlite";
import { collectGarbage, formatSample, measure, table, type Benchmark } from "./harness";
import { serverStoreCandidates } from "./store-candidates";

/** The window the turn reads: the last 20 messages (10 turns). */
const TAIL = 20;

interface Candidate {
  name: string;
  open(directory: string): Promise<{ store: MemoryStore; close(): Promise<void> } | string>;
}

const candidates: Candidate[] = [
  { name: "InMemoryStore", open: async () => ({ store: new InMemoryStore(), close: async () => {} }) },
  {
    name: "FileMemoryStore (fsync)",
    open: async (directory) => ({
      store: new FileMemoryStore(join(directory, `file-${Math.random()}.json`)),
      close: async () => {},
    }),
  },
  {
    name: "SqliteMemoryStore (WAL, synchronous full)",
    open: async (directory) => {
      const store = new SqliteMemoryStore({
        database: new BetterSqlite3(join(directory, `sqlite-${Math.random()}.db`)),
      });
      return { store, close: async () => void store.database.close() };
    },
  },
  ...serverStoreCandidates,
];

/** A turn: the user's message with a text part and an image of `imageBytes` bytes, then the answer. */
function imageTurn(label: string, imageBytes: number): AgentMessage[] {
  const image = new Uint8Array(imageBytes);
  for (let index = 0; index < image.length; index += 4096) image[index] = index % 251;
  return [
    {
      id: `${label}-u`,
      role: "user",
      content: [
        { type: "text", text: "What is in this picture?" },
        { type: "image", image, mediaType: "image/png" },
      ],
      timestamp: Date.now(),
    },
    { id: `${label}-a`, role: "assistant", content: "A cat on a windowsill.", timestamp: Date.now() },
  ];
}

function textTurn(label: string): AgentMessage[] {
  return [
    { id: `${label}-u`, role: "user", content: "And what else?", timestamp: Date.now() },
    { id: `${label}-a`, role: "assistant", content: "Nothing else, just the cat.", timestamp: Date.now() },
  ];
}

/**
 * One turn that carries a 1 MB image, on a session that already holds E earlier image turns out of
 * the window (then 10 text turns, so the window of 20 messages holds none of them): append the
 * turn, then read the window's tail, as the agent does per turn.
 */
export const benchmark: Benchmark = {
  title: "Stores: a turn that carries a 1 MB image, by earlier image turns outside the window",
  async run({ quick }) {
    const imageBytes = quick ? 64 * 1024 : 1024 * 1024;
    const earlier = quick ? [1, 3] : [1, 20];
    const runs = quick ? 3 : 10;
    const directory = mkdtempSync(join(tmpdir(), "agentcore-bench-images-"));
    const rows: string[][] = [];
    try {
      for (const candidate of candidates) {
        const row = [candidate.name];
        for (const count of earlier) {
          const opened = await candidate.open(directory);
          if (typeof opened === "string") {
            row.push(opened);
            continue;
          }
          const { store, close } = opened;
          try {
            for (let index = 0; index < count; index++)
              await store.appendMessages!("bench", imageTurn(`old${index}`, imageBytes));
            for (let index = 0; index < TAIL / 2; index++)
              await store.appendMessages!("bench", textTurn(`text${index}`));
            let turn = 0;
            collectGarbage();
            const sample = await measure(
              async () => {
                turn += 1;
                await store.appendMessages!("bench", imageTurn(`new${turn}`, imageBytes));
                const { messages } = await store.getMessageTail!("bench", TAIL);
                const last = messages.at(-2)!;
                if (messages.length !== TAIL || typeof last.content === "string" || last.content[1]?.type !== "image")
                  throw new Error(`${candidate.name} did not give the turn's image back in the tail`);
              },
              { runs, warmup: quick ? 1 : 2 },
            );
            row.push(formatSample(sample));
          } finally {
            await close();
          }
        }
        rows.push(row);
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
    const size = quick ? "64 KiB (quick mode)" : "1 MiB";
    return [
      `Per turn: \`appendMessages\` of a user message with a ${size} image part (bytes) and the answer, then \`getMessageTail(sessionId, ${TAIL})\`, on a session holding E earlier image turns followed by ${TAIL / 2} text turns (the window of ${TAIL} messages holds none of the earlier images; it holds the image turns measured before, as a chat with pictures would). The cost must not grow with E: a store that rewrites or reads the whole session would. Median (p10–p90) of ${runs} turns.`,
      "",
      table(["store", ...earlier.map((count) => `E = ${count}`)], rows),
    ].join("\n");
  },
};
