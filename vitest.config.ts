import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Every test process gets its own YouYou home: an agent built without `home` (the file channel is on
 * by default) reads this, never the developer's real ~/.youyou.
 */
const testHome = mkdtempSync(join(tmpdir(), 'youyou-test-home-'));
process.on('exit', () => rmSync(testHome, { recursive: true, force: true }));

/** Where CI reads the counts for its closing "N passed, N failed" line. */
const resultsFile = 'node_modules/.cache/vitest/results.json';

export default defineConfig({
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.{ts,tsx}',
      'examples/test/**/*.test.ts',
      'e2e/**/*.test.ts',
      'deploy/test/**/*.test.ts',
    ],
    env: { YOUYOU_HOME: testHome },
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: process.env.CI === undefined ? ['default'] : ['default', 'json'],
    outputFile: { json: resultsFile },
  },
});
