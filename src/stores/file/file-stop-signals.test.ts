import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeStopRun } from "../../../test/helpers/describe-stop-run";
import { FileMemoryStore } from "./file-memory-store";

const root = mkdtempSync(join(tmpdir(), "agentcore-file-stop-"));
let counter = 0;

describeStopRun(
  "FileMemoryStore",
  () => {
    const path = join(root, `sessions-${++counter}.json`);
    return { running: new FileMemoryStore({ path }), stopping: new FileMemoryStore({ path }) };
  },
  async () => rmSync(root, { recursive: true, force: true }),
);
