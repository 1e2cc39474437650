import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { isPostgresUrl } from '../database/index.ts';
import { resolveServerOptions, SERVER_VERSION } from '../server/index.ts';
import { COMMAND_EXIT, CommandUsageError, processCommandIo, type CommandIo } from '../cli/index.ts';
import { readTar, writeTar, type ArchiveEntry } from './tar-archive.ts';

const DATABASE_FILE = 'youyou.db';
const MANIFEST_FILE = 'youyou-backup.json';

/**
 * @example
 * io.stdout(BACKUP_HELP);
 */
export const BACKUP_HELP = `youyou backup: the workbench's data in one file (a tar archive)

Usage: youyou backup [--data-dir <dir>] [--output <file>] [--database-url postgres://…]

SQLite: an online snapshot of the database (the server may keep running) with the uploads,
artifacts, the secret key and the token. PostgreSQL: the files only; dump the database with
pg_dump (docs/deploy.md).
`;

/**
 * @example
 * io.stdout(RESTORE_HELP);
 */
export const RESTORE_HELP = `youyou restore: put a backup back (stop the server first)

Usage: youyou restore <file> [--data-dir <dir>] [--force]

Refuses a data directory that already holds a database unless --force; with --force the
current database and objects are moved aside to <data-dir>/../<name>.before-restore-<time>.
`;

interface BackupManifest {
  format: 1;
  created_at: string;
  server_version: string;
  database: 'sqlite' | 'postgres';
  migrations: string[];
  files: number;
}

function dataDirectoryOf(value: string | undefined, io: CommandIo): string {
  return resolveServerOptions({
    ...(value === undefined ? {} : { dataDirectory: resolve(io.cwd, value) }),
    ...(io.environment['YOUYOU_HOME'] === undefined
      ? {}
      : { home: resolve(io.cwd, io.environment['YOUYOU_HOME']) }),
  }).dataDirectory;
}

async function* filesUnder(root: string, folder = root): AsyncGenerator<string> {
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) yield* filesUnder(root, path);
    else if (entry.isFile()) yield relative(root, path).split(sep).join('/');
  }
}

/** What a backup leaves out: the live database files (the snapshot replaces them) and half-written objects. */
function skipped(path: string): boolean {
  return /^youyou\.db(-wal|-shm|-journal)?$/.test(path) || path.endsWith('.partial');
}

/**
 * `youyou backup`.
 *
 * @example
 * process.exitCode = await backupCommand(['--output', '/backups/youyou.tar']);
 */
export async function backupCommand(
  argv: readonly string[],
  io: CommandIo = processCommandIo(),
): Promise<number> {
  try {
    const { values } = parse(() =>
      parseArgs({
        args: [...argv],
        options: {
          'data-dir': { type: 'string' },
          output: { type: 'string', short: 'o' },
          'database-url': { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help === true) {
      io.stdout(BACKUP_HELP);
      return COMMAND_EXIT.ok;
    }
    const dataDirectory = dataDirectoryOf(values['data-dir'], io);
    if (!existsSync(dataDirectory)) throw new CommandUsageError(`no data directory at ${dataDirectory}`);
    const postgres = isPostgresUrl(values['database-url'] ?? io.environment['YOUYOU_DATABASE_URL']);
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const output = resolve(io.cwd, values.output ?? `youyou-backup-${stamp}.tar`);
    if (existsSync(output)) throw new CommandUsageError(`${output} exists; name another --output`);

    const entries: ArchiveEntry[] = [];
    let migrations: string[] = [];
    if (!postgres) {
      const live = join(dataDirectory, DATABASE_FILE);
      if (!existsSync(live)) throw new CommandUsageError(`no database at ${live}`);
      // VACUUM INTO: a consistent snapshot while the server keeps writing (WAL readers do not block).
      const snapshot = join(await mkdtemp(join(tmpdir(), 'youyou-backup-')), DATABASE_FILE);
      const database = new DatabaseSync(live, { readOnly: true });
      try {
        database.prepare('vacuum into ?').run(snapshot);
        migrations = (
          database.prepare('select name from workbench_migrations order by name').all() as { name: string }[]
        ).map((row) => row.name);
      } finally {
        database.close();
      }
      entries.push({ path: DATABASE_FILE, bytes: await readFile(snapshot) });
      await rm(dirname(snapshot), { recursive: true, force: true });
    }
    for await (const path of filesUnder(dataDirectory)) {
      if (skipped(path)) continue;
      entries.push({ path, bytes: await readFile(join(dataDirectory, path)) });
    }
    const manifest: BackupManifest = {
      format: 1,
      created_at: new Date().toISOString(),
      server_version: SERVER_VERSION,
      database: postgres ? 'postgres' : 'sqlite',
      migrations,
      files: entries.length,
    };
    entries.unshift({ path: MANIFEST_FILE, bytes: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`) });
    await mkdir(dirname(output), { recursive: true });
    await writeTar(output, entries);
    io.stdout(
      `${output}: ${entries.length - 1} file(s), ${(await stat(output)).size} bytes${postgres ? ' (files only: dump PostgreSQL with pg_dump, see docs/deploy.md)' : ''}\n`,
    );
    return COMMAND_EXIT.ok;
  } catch (error) {
    return failure(error, io);
  }
}

/**
 * `youyou restore`.
 *
 * @example
 * process.exitCode = await restoreCommand(['/backups/youyou.tar', '--data-dir', '/var/lib/youyou']);
 */
export async function restoreCommand(
  argv: readonly string[],
  io: CommandIo = processCommandIo(),
): Promise<number> {
  try {
    const { values, positionals } = parse(() =>
      parseArgs({
        args: [...argv],
        allowPositionals: true,
        options: {
          'data-dir': { type: 'string' },
          force: { type: 'boolean' },
          help: { type: 'boolean', short: 'h' },
        },
      }),
    );
    if (values.help === true) {
      io.stdout(RESTORE_HELP);
      return COMMAND_EXIT.ok;
    }
    const [file, extra] = positionals;
    if (file === undefined || extra !== undefined)
      throw new CommandUsageError('restore wants one backup file');
    const archive = resolve(io.cwd, file);
    if (!existsSync(archive)) throw new CommandUsageError(`no backup at ${archive}`);
    const entries = await readTar(archive).catch((error: unknown) => {
      throw new CommandUsageError(
        `${archive} is not a youyou backup (${error instanceof Error ? error.message : String(error)})`,
      );
    });
    const manifestEntry = entries.find((entry) => entry.path === MANIFEST_FILE);
    if (manifestEntry === undefined)
      throw new CommandUsageError(`${archive} is not a youyou backup (no ${MANIFEST_FILE})`);
    const manifest = JSON.parse(Buffer.from(manifestEntry.bytes).toString('utf8')) as BackupManifest;
    for (const entry of entries) {
      if (isAbsolute(entry.path) || entry.path.split('/').includes('..'))
        throw new CommandUsageError(`${archive} holds a path outside its folder: ${entry.path}`);
    }

    const dataDirectory = dataDirectoryOf(values['data-dir'], io);
    const occupied =
      existsSync(join(dataDirectory, DATABASE_FILE)) || existsSync(join(dataDirectory, 'objects'));
    if (occupied && values.force !== true)
      throw new CommandUsageError(`${dataDirectory} already holds a workbench; pass --force to replace it`);
    // Built beside the target, then swapped in: a failed restore leaves the old data where it was.
    const staging = `${dataDirectory}.restoring-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    for (const entry of entries) {
      if (entry.path === MANIFEST_FILE) continue;
      const target = join(staging, entry.path);
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await writeFile(target, entry.bytes, { mode: entry.mode ?? 0o600 });
    }
    let aside: string | undefined;
    if (existsSync(dataDirectory)) {
      aside = `${dataDirectory}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      await rename(dataDirectory, aside);
    }
    await mkdir(dirname(dataDirectory), { recursive: true });
    await rename(staging, dataDirectory);
    io.stdout(
      `restored ${manifest.files} file(s) from ${archive} (made ${manifest.created_at} by ${manifest.server_version}, schema ${manifest.migrations.at(-1) ?? manifest.database}) into ${dataDirectory}${aside === undefined ? '' : `; the previous data is in ${aside}`}\n`,
    );
    return COMMAND_EXIT.ok;
  } catch (error) {
    return failure(error, io);
  }
}

function parse<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new CommandUsageError(error instanceof Error ? error.message : String(error));
  }
}

function failure(error: unknown, io: CommandIo): number {
  io.stderr(`youyou: ${error instanceof Error ? error.message : String(error)}\n`);
  return error instanceof CommandUsageError ? COMMAND_EXIT.usage : COMMAND_EXIT.failed;
}
