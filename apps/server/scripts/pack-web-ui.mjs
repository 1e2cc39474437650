// npm pack's prepack/postpack of @youyou/server: the tarball carries the built web UI in web/
// (decision 0032), copied from apps/web/dist, and the copy is removed again after packing so the
// workspace keeps serving apps/web/dist itself.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverFolder = join(dirname(fileURLToPath(import.meta.url)), '..');
const shipped = join(serverFolder, 'web');
const built = join(serverFolder, '../web/dist');

if (process.argv[2] === 'remove') {
  rmSync(shipped, { recursive: true, force: true });
} else {
  if (!existsSync(join(built, 'index.html'))) {
    console.error('@youyou/server ships the web UI: build it first (npm run build -w @youyou/web).');
    process.exit(1);
  }
  rmSync(shipped, { recursive: true, force: true });
  cpSync(built, shipped, { recursive: true });
}
