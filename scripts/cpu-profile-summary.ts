/**
 * Top self-time functions of a V8 CPU profile (`node --cpu-prof`), as a Markdown table.
 *
 *   npx tsx scripts/cpu-profile-summary.ts <file.cpuprofile> [--top 15]
 */
import { readFileSync } from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, ...rest] = process.argv.slice(2);
if (!file) throw new Error("usage: cpu-profile-summary <file.cpuprofile> [--top N]");
const topIndex = rest.indexOf("--top");
const top = topIndex === -1 ? 15 : Number(rest[topIndex + 1]);
const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfTime = new Map<number, number>();
for (let index = 0; index < profile.samples.length; index++) {
  const id = profile.samples[index]!;
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
}
// Idle time is the event loop waiting, and `dispatch` (no script) the inspector's own Profiler.stop: not part of what a turn costs.
for (const [id] of selfTime) {
  const frame = byId.get(id)!.callFrame;
  if (frame.functionName === "(idle)" || (frame.functionName === "dispatch" && frame.url === "")) selfTime.delete(id);
}
const total = [...selfTime.values()].reduce((sum, time) => sum + time, 0);
const byFunction = new Map<string, number>();
for (const [id, time] of selfTime) {
  const frame = byId.get(id)!.callFrame;
  const where = frame.url ? frame.url.replace(/^.*\/(src|node_modules)\//, "$1/").replace(/^file:\/\//, "") : "";
  const name = `${frame.functionName || "(anonymous)"}${where ? ` ${where}` : ""}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + time);
}
const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top);
console.log(`Total sampled (idle and the profiler's own stop excluded): ${(total / 1000).toFixed(0)} ms`);
console.log("| function | self time | share |\n| --- | --- | --- |");
for (const [name, time] of rows)
  console.log(`| \`${name}\` | ${(time / 1000).toFixed(0)} ms | ${((100 * time) / total).toFixed(1)} % |`);
