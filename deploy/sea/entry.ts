// The single executable's entry: the `youyou` CLI (serve, migrate, version, doctor, components,
// backup, restore) with the web UI packed after the executable's end. deploy/sea/build.ts bundles it as
// CommonJS (what a Node single-executable application runs), so no top-level await here.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isSea } from 'node:sea';
import { main } from '@youyou/cli';
import { readAppendedPack, unpackFolder } from './web-pack.ts';

/** The embedded UI, written once per UI hash under the user's cache folder. */
async function unpackWebUi(): Promise<string | undefined> {
  // Imported here, not at the top: only serve needs the server, and doctor, components and help
  // then start without evaluating it.
  const { BUILD_MANIFEST } = await import('@youyou/server');
  if (!isSea() || BUILD_MANIFEST === undefined) return undefined;
  const cache = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  const folder = join(cache, 'youyou', `web-${BUILD_MANIFEST.uiHash.slice(0, 16)}`);
  // Read the pack only to unpack it (it would otherwise sit in the heap).
  if (existsSync(join(folder, 'index.html'))) return folder;
  const pack = await readAppendedPack(process.execPath);
  return pack === undefined ? undefined : unpackFolder(pack, folder);
}

async function run(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv[0] === 'serve' && process.env['YOUYOU_WEB_ROOT'] === undefined) {
    const webRoot = await unpackWebUi();
    if (webRoot !== undefined) process.env['YOUYOU_WEB_ROOT'] = webRoot;
  }
  process.exitCode = await main(argv);
}

void run();
