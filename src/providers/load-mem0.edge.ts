import { UnsupportedRuntimeError } from "../errors/unsupported-runtime-error";

/** The edge build's stand-in for `load-mem0.ts`: the `mem0ai` package needs Node, so it is never bundled for the edge. */
export function loadMem0(): Promise<unknown> {
  return Promise.reject(
    new UnsupportedRuntimeError({
      feature: "Mem0Provider",
      requirement: "Node.js (the mem0ai package uses fs, os and crypto)",
      message:
        "Mem0Provider cannot load the mem0ai package on the edge (it needs Node.js): pass a ready client, new Mem0Provider({ client }), that calls Mem0's HTTP API with fetch.",
    }),
  );
}
