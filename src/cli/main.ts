#!/usr/bin/env node
// The bin. The Node check comes first, before any module that might not load on an old Node: the one the npm
// scripts run, shipped in the package's src/build (two folders up from src/cli and from dist/cli alike).
await import(new URL('../../src/build/require-node.mjs', import.meta.url).href);
const { runCli } = await import('./run-cli.ts');
await runCli(process.argv.slice(2));
