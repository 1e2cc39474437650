import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp root with a YouYou home, a data directory and room for project folders; never the real ~/.youyou. */
export interface TempDirectories {
  root: string;
  home: string;
  dataDirectory: string;
  remove(): Promise<void>;
}

export async function createTempDirectories(): Promise<TempDirectories> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'youyou-server-')));
  return {
    root,
    home: join(root, 'home'),
    dataDirectory: join(root, 'home', 'workbench'),
    remove: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}
