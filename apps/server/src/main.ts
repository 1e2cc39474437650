// `tsx apps/server/src/main.ts [serve|migrate|version] [options]`: the server without the `youyou`
// CLI around it (`npm start` runs `serve`).
import { migrateCommand, serveCommand, versionCommand } from './cli/index.ts';

const [command = 'serve', ...rest] = process.argv.slice(2);
const run = async (): Promise<number> => {
  switch (command) {
    case 'serve':
      return serveCommand(rest);
    case 'migrate':
      return migrateCommand(rest);
    case 'version':
      return versionCommand();
    default:
      // Options without a command mean serve.
      return command.startsWith('-')
        ? serveCommand([command, ...rest])
        : (process.stderr.write(`unknown command: ${command}\n`), 2);
  }
};
process.exitCode = await run();
