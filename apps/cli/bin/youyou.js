#!/usr/bin/env node
// The `youyou` command: the built CLI (dist/, which `npm run build:packages` writes and the
// published package ships). In the workspace, `node --conditions=@youyou/source apps/cli/src/bin.ts`
// runs the sources without a build.
await import('../dist/bin.js');
