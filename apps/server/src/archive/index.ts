export { ArchiveService } from './archive-service.ts';
export type { ArchiveSelection, MadeArchive } from './archive-service.ts';
export { DEFAULT_ARCHIVE_LIMITS, readArchive, writeArchive } from './archive-zip.ts';
export type { ArchiveFile, ArchiveLimits, ReadArchive } from './archive-zip.ts';
