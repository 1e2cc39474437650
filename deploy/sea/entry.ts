// The single executable's entry: the `youyou` CLI (serve, migrate, version, doctor, components,
// backup, restore) with the web UI embedded as an asset. deploy/sea/build.ts bundles it as
// CommonJS (what a Node single-executable application runs), so no top-level await here.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { main } from '@youyou/cli';
import { BUILD_MANIFEST } from '@youyou/server';
import { unpackFolder } from './web-pack.ts';

/** The embedded UI, written once per UI hash under the user's cache folder. */
async function unpackWebUi(): Promise<string | undefined> {
  if (!isSea() || BUILD_MANIFEST === undefined) return undefined;
  const cache = process.env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache');
  const folder = join(cache, 'youyou', `web-${BUILD_MANIFEST.uiHash.slice(0, 16)}`);
  // Read the asset only to unpack it: getAsset copies it into the heap.
  if (existsSync(join(folder, 'index.html'))) return folder;
  return unpackFolder(new Uint8Array(getAsset('web.pack')), folder);
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
