export { BACKUP_HELP, backupCommand, RESTORE_HELP, restoreCommand } from './backup-commands.ts';
export { readTar, writeTar } from './tar-archive.ts';
export type { ArchiveEntry } from './tar-archive.ts';
