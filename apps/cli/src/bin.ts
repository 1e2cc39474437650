// The `youyou` process: bin/youyou.js runs this file built (dist/bin.js); in the workspace,
// `node --conditions=@youyou/source apps/cli/src/bin.ts` runs it from the sources.
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
