import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTar, writeTar } from '../src/backup/index.ts';

const LONG_PATH = `objects/${'a'.repeat(120)}/${'b'.repeat(90)}.bin`;

describe('backup archive (tar)', () => {
  let directory: string;
  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'youyou-tar-'));
  });
  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('reads back every file, a path over 100 bytes and an empty file included, with its mode', async () => {
    const archive = join(directory, 'backup.tar');
    const bytes = Buffer.from('x'.repeat(1_000));
    await writeTar(archive, [
      { path: 'youyou.db', bytes },
      { path: LONG_PATH, bytes: Buffer.from([0, 1, 2]), mode: 0o644 },
      { path: 'empty', bytes: new Uint8Array() },
    ]);
    expect((await stat(archive)).mode & 0o777).toBe(0o600);
    const entries = await readTar(archive);
    expect(
      entries.map((entry) => [entry.path, Buffer.from(entry.bytes).toString('hex'), entry.mode]),
    ).toEqual([
      ['youyou.db', bytes.toString('hex'), 0o600],
      [LONG_PATH, '000102', 0o644],
      ['empty', '', 0o600],
    ]);
  });

  it('writes what tar -xf unpacks, and reads what tar -cf packs', async () => {
    const archive = join(directory, 'backup.tar');
    await writeTar(archive, [{ path: LONG_PATH, bytes: Buffer.from('hello') }]);
    const unpacked = join(directory, 'unpacked');
    await mkdir(unpacked);
    execFileSync('tar', ['-xf', archive, '-C', unpacked]);
    expect(await readFile(join(unpacked, LONG_PATH), 'utf8')).toBe('hello');

    const packed = join(directory, 'packed.tar');
    execFileSync('tar', ['-cf', packed, '-C', unpacked, 'objects']);
    const entries = await readTar(packed);
    expect(entries.map((entry) => [entry.path, Buffer.from(entry.bytes).toString('utf8')])).toEqual([
      [LONG_PATH, 'hello'],
    ]);
  });

  it('refuses to overwrite an archive, and rejects bytes that are not one', async () => {
    const archive = join(directory, 'backup.tar');
    await writeFile(archive, 'not a tar');
    await expect(writeTar(archive, [])).rejects.toThrow(/EEXIST/);
    await expect(readTar(archive)).rejects.toThrow();
  });
});
