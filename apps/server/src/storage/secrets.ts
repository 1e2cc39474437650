import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from 'node:crypto';
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Kysely } from 'kysely';
import type { Schema } from '../database/index.ts';
import { ApiError } from '../errors/index.ts';

const KEY_BYTES = 32;
const IV_BYTES = 12;
const FORMAT = 'v1';

/**
 * The key secrets are encrypted with: `YOUYOU_SECRET_KEY` (base64, 32 bytes) when set, else a
 * file created with mode 0600 on first use. Servers sharing one PostgreSQL must share the key.
 *
 * @example
 * const key = await loadSecretKey('/home/me/.youyou/workbench/secret.key');
 */
export async function loadSecretKey(
  file: string,
  environment: NodeJS.ProcessEnv = process.env,
): Promise<Buffer> {
  const fromEnvironment = environment['YOUYOU_SECRET_KEY'];
  if (fromEnvironment !== undefined && fromEnvironment !== '') {
    const key = Buffer.from(fromEnvironment, 'base64');
    if (key.length !== KEY_BYTES) throw new Error('YOUYOU_SECRET_KEY must be 32 bytes, base64-encoded.');
    return key;
  }
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length === KEY_BYTES) return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(KEY_BYTES);
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  // Written whole to a temporary file, then linked into place: a server starting beside us never
  // reads a half-written key, and whoever links first wins.
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, `${key.toString('base64')}\n`, { mode: 0o600 });
  try {
    await link(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary).catch(() => {});
  }
  await chmod(file, 0o600);
  const stored = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
  if (stored.length !== KEY_BYTES) throw new Error(`${file} does not hold a ${KEY_BYTES}-byte base64 key.`);
  return stored;
}

/**
 * Secrets (API keys) encrypted with AES-256-GCM; the API stores them and never returns them
 * (spec §4.7, §4.9).
 *
 * @example
 * const id = await secrets.put('openai key', 'sk-…');
 * const key = await secrets.reveal(id); // for the provider, never for a response
 */
export class SecretStore {
  readonly #db: Kysely<Schema>;
  readonly #key: Buffer;

  constructor(db: Kysely<Schema>, key: Buffer) {
    this.#db = db;
    this.#key = key;
  }

  async put(name: string, value: string, db: Kysely<Schema> = this.#db): Promise<string> {
    const id = randomUUID();
    const now = Date.now();
    await db
      .insertInto('secrets')
      .values({ id, owner: null, name, ciphertext: this.#encrypt(value), created_at: now, updated_at: now })
      .execute();
    return id;
  }

  async replace(id: string, value: string, db: Kysely<Schema> = this.#db): Promise<void> {
    await db
      .updateTable('secrets')
      .set({ ciphertext: this.#encrypt(value), updated_at: Date.now() })
      .where('id', '=', id)
      .execute();
  }

  async reveal(id: string): Promise<string> {
    const row = await this.#db
      .selectFrom('secrets')
      .select('ciphertext')
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined)
      throw new ApiError('NOT_FOUND', 'The secret is gone.', { details: { resource: 'secret' } });
    return this.#decrypt(row.ciphertext);
  }

  async delete(id: string, db: Kysely<Schema> = this.#db): Promise<void> {
    await db.deleteFrom('secrets').where('id', '=', id).execute();
  }

  #encrypt(value: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const data = Buffer.concat([cipher.update(value, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [FORMAT, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join(
      ':',
    );
  }

  #decrypt(text: string): string {
    const [format, iv, tag, data] = text.split(':');
    if (format !== FORMAT || iv === undefined || tag === undefined || data === undefined) {
      throw new ApiError('INTERNAL_ERROR', 'A stored secret has an unknown format.');
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      );
    } catch (error) {
      throw new ApiError(
        'INTERNAL_ERROR',
        'A stored secret cannot be decrypted with this server’s key (YOUYOU_SECRET_KEY or secret.key differ from the server that stored it).',
        { cause: error },
      );
    }
  }
}
