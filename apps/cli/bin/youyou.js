#!/usr/bin/env node
// The `youyou` command: the built CLI (dist/, which `npm run build:packages` writes and the
// published package ships). In a workspace checkout that has not been built — a fresh clone right
// after `npm install` — dist/ (its own or a workspace dependency's) is missing; then the command
// runs from the sources instead: a child node with the workspaces' source export condition, which
// points every @youyou package at its src/ (Node strips the types).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// The export condition the workspace package.json files give their src/ entry points under.
const SOURCE_CONDITION = '@youyou/source';

const sources = fileURLToPath(import.meta.resolve('../src/bin.ts'));

try {
  await import('../dist/bin.js');
} catch (error) {
  // A missing module fails while the graph is linked, before any of it runs, so nothing has
  // happened yet; only the workspace (which has src/) can fall back.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !existsSync(sources)) throw error;
  const child = spawnSync(
    process.execPath,
    [`--conditions=${SOURCE_CONDITION}`, ...process.execArgv, sources, ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  if (child.error) throw child.error;
  if (child.signal) process.kill(process.pid, child.signal);
  process.exitCode = child.status ?? 1;
}
