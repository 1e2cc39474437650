import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basename } from 'node:path';

/** One packed package: its manifest and the tarball `npm pack` wrote. */
export interface PackedPackage {
  manifest: { name: string; version: string } & Record<string, unknown>;
  tarball: string;
  integrity: string;
  shasum: string;
}

export interface LocalRegistry {
  /** `http://127.0.0.1:PORT/`: give it to npm as `--@youyou:registry=<url>`. */
  url: string;
  close(): Promise<void>;
}

/**
 * A read-only npm registry on loopback serving our packed packages, so a scratch project installs
 * them the way a user would (`npm i @youyou/agent`), their own dependencies on each other
 * included. Only our scope is pointed here; everything else comes from the real registry.
 *
 * @example
 * const registry = await startLocalRegistry(packed);
 * execFileSync('npm', ['i', '@youyou/agent', `--@youyou:registry=${registry.url}`]);
 */
export async function startLocalRegistry(packages: readonly PackedPackage[]): Promise<LocalRegistry> {
  const byName = new Map(packages.map((item) => [item.manifest.name, item]));
  const byFile = new Map(packages.map((item) => [basename(item.tarball), item]));
  const server = createServer((request, response) => {
    void (async () => {
      const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname).slice(1);
      const tarball = byFile.get(basename(path));
      if (path.startsWith('-/') && tarball !== undefined) {
        const bytes = await readFile(tarball.tarball);
        response.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': bytes.length,
        });
        response.end(bytes);
        return;
      }
      const item = byName.get(path);
      if (item === undefined) {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"error":"not found"}');
        return;
      }
      const { name, version } = item.manifest;
      const document = {
        name,
        'dist-tags': { latest: version },
        versions: {
          [version]: {
            ...item.manifest,
            _id: `${name}@${version}`,
            dist: {
              tarball: `${url}-/${basename(item.tarball)}`,
              integrity: item.integrity,
              shasum: item.shasum,
            },
          },
        },
      };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(document));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
