import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Every test process gets its own YouYou home: an agent built without `home` (the file channel is on
 * by default) reads this, never the developer's real ~/.youyou.
 */
const testHome = mkdtempSync(join(tmpdir(), 'youyou-test-home-'));
process.on('exit', () => rmSync(testHome, { recursive: true, force: true }));

/** Where CI reads the counts for its closing "N passed, N failed" line. */
const resultsFile = 'node_modules/.cache/vitest/results.json';

/**
 * Our packages (`@youyou/*`) from their sources: their exports' `@youyou/source` condition (decision
 * 0032). The node tests resolve in Vite's `ssr` environment, the jsdom ones in `client`.
 */
const SOURCE_CONDITION = '@youyou/source';

export default defineConfig({
  resolve: { conditions: [SOURCE_CONDITION, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
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
