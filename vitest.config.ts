import { defineConfig } from 'vitest/config';

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
    testTimeout: 20_000,
    hookTimeout: 20_000,
    reporters: process.env.CI === undefined ? ['default'] : ['default', 'json'],
    outputFile: { json: resultsFile },
  },
});
