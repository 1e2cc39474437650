import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { woffToSfnt } from './woff-to-sfnt.ts';

const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SYSTEM_CHROMIUM = '/usr/bin/chromium';

/** The Chromium the browser tests drive, and the environment it needs. */
export interface ChromiumExecutable {
  path: string;
  /** Where it came from, for the log line. */
  source: 'YOUYOU_CHROMIUM' | 'system' | 'npm';
  env: Record<string, string>;
}

let found: Promise<ChromiumExecutable> | undefined;

/**
 * `YOUYOU_CHROMIUM` when it names a file, else Debian's /usr/bin/chromium when there (and
 * YOUYOU_CHROMIUM is unset), else the Chromium the npm registry ships in `@sparticuz/chromium`
 * (unpacked once into the temp directory) with a CJK font from `@fontsource/noto-sans-sc` that
 * fontconfig finds, so a bare machine with Node alone runs the browser tests and the zh-CN
 * screenshots show Chinese glyphs.
 *
 * @example
 * const { path, env } = await chromiumExecutable();
 */
export function chromiumExecutable(): Promise<ChromiumExecutable> {
  found ??= locate();
  return found;
}

async function locate(): Promise<ChromiumExecutable> {
  const configured = process.env['YOUYOU_CHROMIUM'];
  if (configured !== undefined && configured !== '' && existsSync(configured))
    return { path: configured, source: 'YOUYOU_CHROMIUM', env: {} };
  if ((configured === undefined || configured === '') && existsSync(SYSTEM_CHROMIUM))
    return { path: SYSTEM_CHROMIUM, source: 'system', env: {} };
  const executable = await withLock(join(tmpdir(), 'youyou-chromium-unpack.lock'), async () => {
    // Loaded only here: it decompresses ~60 MB on first use.
    const { default: chromium } = await import('@sparticuz/chromium');
    chromium.setGraphicsMode = false;
    return chromium.executablePath();
  });
  const fonts = await withLock(join(tmpdir(), 'youyou-chromium-fonts.lock'), prepareFonts);
  process.stderr.write(
    `browser tests: Chromium from @sparticuz/chromium (${executable}); ${configured === undefined ? `no ${SYSTEM_CHROMIUM}` : `YOUYOU_CHROMIUM=${configured} is not there`}\n`,
  );
  return { path: executable, source: 'npm', env: { FONTCONFIG_PATH: fonts } };
}

/** A fontconfig folder: the package's own fonts (Latin) plus Noto Sans SC, as TrueType. */
async function prepareFonts(): Promise<string> {
  const folder = join(REPOSITORY, 'node_modules', '.cache', 'youyou-chromium-fonts');
  const done = join(folder, 'fonts.conf');
  if (existsSync(done)) return folder;
  await mkdir(folder, { recursive: true });
  const source = join(REPOSITORY, 'node_modules', '@fontsource', 'noto-sans-sc', 'files');
  for (const name of await readdir(source)) {
    if (!/-(400|700)-normal\.woff$/.test(name)) continue;
    await writeFile(
      join(folder, name.replace(/\.woff$/, '.ttf')),
      woffToSfnt(await readFile(join(source, name))),
    );
  }
  // Written last: its presence means the folder is complete.
  await writeFile(
    done,
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(tmpdir(), 'fonts')}</dir>\n  <dir>${folder}</dir>\n  <cachedir>${join(folder, 'cache')}</cachedir>\n</fontconfig>\n`,
  );
  return folder;
}

/** Runs `work` while holding a lock folder, so parallel test files unpack and convert once. */
async function withLock<T>(lock: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`${lock} is held for too long; remove it if no test runs`);
      await new Promise((done) => setTimeout(done, 200));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}
