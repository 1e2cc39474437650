import { createHash } from 'node:crypto';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_MANIFEST_PATH,
  archiveManifestSchema,
  archivePathSchema,
  type ArchiveItem,
  type ArchiveItemKind,
  type ArchiveManifest,
} from '@youyou/contracts';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { ApiError } from '../errors/index.ts';

/** One file to put in an archive. */
export interface ArchiveFile {
  path: string;
  kind: ArchiveItemKind;
  bytes: Uint8Array;
}

/** The limits a read archive must keep. */
export interface ArchiveLimits {
  /** The largest entry, uncompressed. */
  maxEntryBytes: number;
  /** All entries together, uncompressed. */
  maxTotalBytes: number;
  maxEntries: number;
}

/** Defaults: 64 MiB an entry, 512 MiB in all, 100,000 entries. */
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
  maxEntries: 100_000,
};

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * A zip of `files` with a `manifest.json` listing each of them with its size and SHA-256.
 *
 * @example
 * const zip = writeArchive({ app_version: '0.1.0', scope: 'conversation', projects: [], conversations }, files);
 */
export function writeArchive(
  header: Omit<ArchiveManifest, 'format' | 'format_version' | 'items' | 'created_at'>,
  files: readonly ArchiveFile[],
  createdAt = new Date(),
): Uint8Array {
  const items: ArchiveItem[] = files.map((file) => ({
    path: file.path,
    kind: file.kind,
    size: file.bytes.byteLength,
    sha256: sha256(file.bytes),
  }));
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    format_version: ARCHIVE_FORMAT_VERSION,
    created_at: createdAt.toISOString(),
    ...header,
    items,
  };
  const entries: Zippable = { [ARCHIVE_MANIFEST_PATH]: strToU8(JSON.stringify(manifest, null, 2)) };
  for (const file of files) {
    // Stored objects are often compressed already (images, PDFs); rows and Markdown deflate well.
    entries[file.path] = [file.bytes, { level: file.kind === 'object' ? 0 : 6 }];
  }
  return zipSync(entries, { mtime: createdAt });
}

/** A read and checked archive: its manifest and every listed entry's bytes. */
export interface ReadArchive {
  manifest: ArchiveManifest;
  files: ReadonlyMap<string, Uint8Array>;
}

function refuse(
  code:
    | 'ARCHIVE_INVALID'
    | 'ARCHIVE_UNSAFE_PATH'
    | 'ARCHIVE_TOO_LARGE'
    | 'ARCHIVE_CHECKSUM_MISMATCH'
    | 'ARCHIVE_VERSION_UNSUPPORTED',
  message: string,
  details: Record<string, unknown> = {},
): never {
  throw new ApiError(code, message, { details });
}

/**
 * Reads a zip and checks it whole before anything uses it: every entry path stays inside the
 * archive, no entry or total is beyond `limits` (sizes checked before inflating, then again on
 * the bytes), the manifest parses and is a version this build reads, every entry is listed and
 * every listed entry is there with its size and SHA-256.
 *
 * @example
 * const { manifest, files } = readArchive(bytes);
 */
export function readArchive(bytes: Uint8Array, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): ReadArchive {
  let entries: Record<string, Uint8Array>;
  let count = 0;
  let declared = 0;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        count += 1;
        if (file.name.endsWith('/')) return false; // a folder entry holds nothing
        if (!archivePathSchema.safeParse(file.name).success) {
          refuse(
            'ARCHIVE_UNSAFE_PATH',
            `The archive entry “${file.name}” would be written outside the archive.`,
            {
              path: file.name,
            },
          );
        }
        if (count > limits.maxEntries) {
          refuse('ARCHIVE_TOO_LARGE', `The archive has more than ${limits.maxEntries} entries.`, {
            limit: limits.maxEntries,
          });
        }
        if (file.originalSize > limits.maxEntryBytes) {
          refuse(
            'ARCHIVE_TOO_LARGE',
            `The archive entry “${file.name}” is larger than ${limits.maxEntryBytes} bytes.`,
            {
              path: file.name,
              size: file.originalSize,
              limit: limits.maxEntryBytes,
            },
          );
        }
        declared += file.originalSize;
        if (declared > limits.maxTotalBytes) {
          refuse('ARCHIVE_TOO_LARGE', `The archive unpacks to more than ${limits.maxTotalBytes} bytes.`, {
            limit: limits.maxTotalBytes,
          });
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    refuse('ARCHIVE_INVALID', 'The file is not a readable zip archive.', {
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  const manifestBytes = entries[ARCHIVE_MANIFEST_PATH];
  if (manifestBytes === undefined) refuse('ARCHIVE_INVALID', `The archive has no ${ARCHIVE_MANIFEST_PATH}.`);
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(manifestBytes));
  } catch {
    refuse('ARCHIVE_INVALID', `The archive's ${ARCHIVE_MANIFEST_PATH} is not JSON.`);
  }
  const version = (raw as { format_version?: unknown } | null)?.format_version;
  if (typeof version === 'number' && version > ARCHIVE_FORMAT_VERSION) {
    refuse(
      'ARCHIVE_VERSION_UNSUPPORTED',
      `The archive is format version ${version}; this YouYou reads up to version ${ARCHIVE_FORMAT_VERSION}. Update YouYou to import it.`,
      { format_version: version, supported: ARCHIVE_FORMAT_VERSION },
    );
  }
  const parsed = archiveManifestSchema.safeParse(raw);
  if (!parsed.success) {
    refuse('ARCHIVE_INVALID', `The archive's ${ARCHIVE_MANIFEST_PATH} is not a YouYou archive manifest.`, {
      issues: parsed.error.issues
        .slice(0, 5)
        .map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
  const manifest = parsed.data;
  const files = new Map<string, Uint8Array>();
  const listed = new Set<string>();
  for (const item of manifest.items) {
    if (listed.has(item.path) || item.path === ARCHIVE_MANIFEST_PATH) {
      refuse('ARCHIVE_INVALID', `The manifest lists “${item.path}” twice.`, { path: item.path });
    }
    listed.add(item.path);
    const content = entries[item.path];
    if (content === undefined) {
      refuse('ARCHIVE_INVALID', `The manifest lists “${item.path}”, which the archive does not hold.`, {
        path: item.path,
      });
    }
    if (content.byteLength !== item.size || sha256(content) !== item.sha256) {
      refuse(
        'ARCHIVE_CHECKSUM_MISMATCH',
        `The archive entry “${item.path}” does not match its checksum: the archive was changed or damaged.`,
        {
          path: item.path,
        },
      );
    }
    files.set(item.path, content);
  }
  for (const name of Object.keys(entries)) {
    if (name !== ARCHIVE_MANIFEST_PATH && !listed.has(name)) {
      refuse('ARCHIVE_INVALID', `The archive holds “${name}”, which its manifest does not list.`, {
        path: name,
      });
    }
  }
  return { manifest, files };
}
