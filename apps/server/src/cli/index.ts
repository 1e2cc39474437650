export { COMMAND_EXIT, CommandUsageError, processCommandIo } from './command-io.ts';
export type { CommandIo } from './command-io.ts';
export { MIGRATE_HELP, migrateCommand, SERVE_HELP, serveCommand, serveOptionsOf } from './commands.ts';
export { versionCommand } from '../version/index.ts';
