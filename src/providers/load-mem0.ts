/**
 * Imports the optional `mem0ai` package (Node build). The specifier goes through a parameter, so
 * no bundler (Turbopack, webpack, esbuild) sees which package it names: an app that never uses
 * Mem0 builds without mem0ai installed, and one that does loads it from node_modules at run time.
 * A missing package rejects with Node's `ERR_MODULE_NOT_FOUND`, which `Mem0Provider` turns into an
 * `UnsupportedRuntimeError` naming `npm install mem0ai`. The edge build swaps this file for
 * `load-mem0.edge.ts`: mem0ai needs Node's fs, os and crypto, so there it is never loaded.
 */
export function loadMem0(): Promise<unknown> {
  return importAtRunTime("mem0ai");
}

function importAtRunTime(specifier: string): Promise<unknown> {
  return import(/* webpackIgnore: true */ /* turbopackIgnore: true */ /* @vite-ignore */ specifier);
}
