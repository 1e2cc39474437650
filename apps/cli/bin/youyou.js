#!/usr/bin/env node
// The `youyou` command. It runs the TypeScript sources as they are: Node strips the types (natively
// from 22.18 and 23.6; with --experimental-strip-types on 22.13–22.17, which this file adds).
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.features.typescript) {
  const result = spawnSync(
    process.execPath,
    [
      '--experimental-strip-types',
      '--disable-warning=ExperimentalWarning',
      fileURLToPath(import.meta.url),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  process.exit(result.status ?? 1);
}

const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
