// The `youyou` command as a library: the server issue adds `serve` to it.
export { main, HELP } from './main.ts';
export { EXIT_CODES } from './exit-codes.ts';
export type { ExitCode } from './exit-codes.ts';
export { processIo, UsageError } from './cli-io.ts';
export type { CliIo } from './cli-io.ts';
export type { DoctorReport } from './doctor-command.ts';
