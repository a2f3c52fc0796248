#!/usr/bin/env node
// The `agentcore` command (package.json "bin").
import { main } from "./main";

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
