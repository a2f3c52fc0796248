import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { SqliteMemoryStore } from "./sqlite-memory-store";

const root = mkdtempSync(join(tmpdir(), "agentcore-sqlite-stop-"));
const opened: SqliteMemoryStore[] = [];
let counter = 0;

describeStopRun(
  "SqliteMemoryStore",
  () => {
    const database = join(root, `sessions-${++counter}.db`);
    const running = new SqliteMemoryStore({ database });
    const stopping = new SqliteMemoryStore({ database });
    opened.push(running, stopping);
    return { running, stopping };
  },
  async () => {
    for (const store of opened) store.close();
    rmSync(root, { recursive: true, force: true });
  },
);
