// The packages as a user gets them: packed, served by a registry, installed into a project outside
// the workspace, and run by Node 22 and Node 24 from dist/ (no sources, no build step, no tsx).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { danglingMapSources, installedBytes, type PackReport } from './package-contents.ts';
import { startLocalRegistry, type LocalRegistry, type PackedPackage } from './local-registry.ts';
import { cleanEnvironment, firstTypeScriptBlock, nodeBinary, REPOSITORY, run } from './scratch-tools.ts';

const NODE_MAJORS = [22, 24] as const;
const SETUP_TIMEOUT_MS = 600_000;
// tsc over every declaration of the installed tree takes a while on a shared machine.
vi.setConfig({ testTimeout: 180_000 });

interface Workspace {
  folder: string;
  manifest: PackedPackage['manifest'] & { private?: boolean; exports?: Record<string, unknown> };
}

/** Every workspace package that is not private: what we publish. */
async function publicPackages(): Promise<Workspace[]> {
  const found: Workspace[] = [];
  for (const parent of ['packages', 'apps']) {
    for (const name of await readdir(join(REPOSITORY, parent))) {
      const folder = join(parent, name);
      const manifest = JSON.parse(
        await readFile(join(REPOSITORY, folder, 'package.json'), 'utf8').catch(() => '{}'),
      ) as Workspace['manifest'];
      if (manifest.name !== undefined && manifest.private !== true) found.push({ folder, manifest });
    }
  }
  return found;
}

/** The version of a dependency installed in the workspace. */
async function workspaceVersionOf(name: string): Promise<string> {
  const manifest = JSON.parse(
    await readFile(join(REPOSITORY, 'node_modules', name, 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}

let root: string;
let registry: LocalRegistry | undefined;
let workspaces: Workspace[];
let project: string;
let globalPrefix: string;
let packed: (PackReport & { filename: string; integrity: string; shasum: string })[];

/**
 * The most each package may weigh: packed (the tarball) and installed (it and the dependencies it
 * pulls in, peers not counted). Decision 0044: a bound that breaks is a decision to make, not a
 * number to bump; @youyou/server carries the built web UI.
 */
const SIZE_BOUNDS: Record<string, { packed: number; installed: number }> = {
  '@youyou/agent': { packed: 250_000, installed: 5_000_000 },
  '@youyou/client': { packed: 50_000, installed: 10_000_000 },
  '@youyou/contracts': { packed: 250_000, installed: 10_000_000 },
  '@youyou/providers': { packed: 100_000, installed: 6_000_000 },
  // The document generators (≈118 MB) are optional peers of @youyou/testing/documents.
  '@youyou/testing': { packed: 80_000, installed: 8_000_000 },
  // The server writes Word files from document templates with `docx` (≈23 MB installed, decision 0050).
  '@youyou/cli': { packed: 30_000, installed: 100_000_000 },
  '@youyou/server': { packed: 7_000_000, installed: 100_000_000 },
};

/** The document generators @youyou/testing/documents wants as peers, as a user of it installs them. */
async function documentGenerators(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(REPOSITORY, 'packages/testing/package.json'), 'utf8')) as {
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  const names = Object.keys(manifest.peerDependenciesMeta).filter((name) => name !== 'vitest');
  return Promise.all(names.map(async (name) => `${name}@${await workspaceVersionOf(name)}`));
}
const nodes = new Map<number, string>();

/** Every module specifier our packages export: `@youyou/agent`, `@youyou/agent/files`, … */
function entryPoints(): string[] {
  return workspaces.flatMap(({ manifest }) =>
    Object.keys(manifest.exports ?? {})
      .filter((key) => !key.includes('*'))
      .map((key) => `${manifest.name}${key.slice(1)}`),
  );
}

/**
 * Every JSON file a pattern export (`"./schemas/*"`) publishes, as the specifier a consumer
 * imports it by: `@youyou/contracts/schemas/extension.schema.json`, …
 */
async function jsonExports(): Promise<string[]> {
  const found: string[] = [];
  for (const { folder, manifest } of workspaces) {
    for (const key of Object.keys(manifest.exports ?? {}).filter((pattern) => pattern.endsWith('/*'))) {
      const subfolder = key.slice(2, -2);
      for (const file of await readdir(join(REPOSITORY, folder, subfolder)).catch(() => [])) {
        if (file.endsWith('.json')) found.push(`${manifest.name}/${subfolder}/${file}`);
      }
    }
  }
  return found;
}

function withNode(major: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const node = nodes.get(major);
  if (node === undefined) throw new Error(`no Node ${major}`);
  return cleanEnvironment({
    PATH: [dirname(node), join(globalPrefix, 'bin'), process.env['PATH']].join(delimiter),
    ...extra,
  });
}

beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'youyou-pack-')));
  workspaces = await publicPackages();
  for (const major of NODE_MAJORS) nodes.set(major, await nodeBinary(major));

  const build = await run(
    process.execPath,
    [join(REPOSITORY, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
    { cwd: REPOSITORY },
  );
  expect(build.stdout + build.stderr, 'tsc -b tsconfig.build.json').not.toMatch(/error TS/);
  expect(build.code).toBe(0);

  // @youyou/server's prepack ships the built UI (decision 0032); CI builds it before the tests.
  if (!existsSync(join(REPOSITORY, 'apps/web/dist/index.html'))) {
    const web = await run('npm', ['run', 'build', '-w', '@youyou/web'], { cwd: REPOSITORY });
    expect(web.code, web.stderr).toBe(0);
  }

  const tarballs = join(root, 'tarballs');
  await mkdir(tarballs);
  const pack = await run(
    'npm',
    ['pack', '--json', '--pack-destination', tarballs, ...workspaces.flatMap(({ folder }) => ['-w', folder])],
    { cwd: REPOSITORY },
  );
  expect(pack.code, pack.stderr).toBe(0);
  packed = JSON.parse(pack.stdout) as (PackReport & {
    filename: string;
    integrity: string;
    shasum: string;
  })[];
  for (const item of packed) {
    // What a tarball carries: the build, never the TypeScript sources the workspace runs.
    expect(
      item.files.some((file) => file.path.startsWith('dist/')),
      `${item.name} ships dist/`,
    ).toBe(true);
    expect(
      item.files.filter((file) => file.path.startsWith('src/')),
      `${item.name} ships no src/`,
    ).toEqual([]);
  }
  registry = await startLocalRegistry(
    packed.map((item) => {
      const workspace = workspaces.find(({ manifest }) => manifest.name === item.name);
      if (workspace === undefined) throw new Error(`packed an unknown package ${item.name}`);
      return {
        manifest: workspace.manifest,
        tarball: join(tarballs, item.filename),
        integrity: item.integrity,
        shasum: item.shasum,
      };
    }),
  );
  const npmRegistry = [`--@youyou:registry=${registry.url}`, '--no-audit', '--no-fund', '--prefer-offline'];

  project = join(root, 'project');
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module' }),
  );
  const install = await run(
    'npm',
    [
      'install',
      ...npmRegistry,
      '@types/node@24',
      // The peer of @youyou/testing/contracts (storage contract suites), as a user of it has.
      `vitest@${await workspaceVersionOf('vitest')}`,
      // The bundlers a web consumer builds @youyou/client with.
      `vite@${await workspaceVersionOf('vite')}`,
      `esbuild@${await workspaceVersionOf('esbuild')}`,
      ...(await documentGenerators()),
      ...workspaces.map(({ manifest }) => `${manifest.name}@${manifest.version}`),
    ],
    { cwd: project },
  );
  expect(install.code, install.stderr).toBe(0);

  globalPrefix = join(root, 'global');
  const cli = workspaces.find(({ manifest }) => manifest.name === '@youyou/cli');
  if (cli === undefined) throw new Error('no @youyou/cli workspace');
  const globalInstall = await run(
    'npm',
    ['install', '--global', '--prefix', globalPrefix, ...npmRegistry, `@youyou/cli@${cli.manifest.version}`],
    { cwd: root },
  );
  expect(globalInstall.code, globalInstall.stderr).toBe(0);

  // The README example, as it is written (TypeScript), and as plain JavaScript.
  const example = await firstTypeScriptBlock(join(REPOSITORY, 'packages/agent/README.md'));
  await writeFile(join(project, 'readme-example.ts'), example);
  await writeFile(join(project, 'readme-example.mjs'), stripTypeScriptTypes(example));
  const specifiers = entryPoints();
  await writeFile(
    join(project, 'every-entry.ts'),
    `${specifiers.map((specifier, index) => `import * as entry${index} from '${specifier}';`).join('\n')}\n` +
      `export const entries: object[] = [${specifiers.map((_, index) => `entry${index}`).join(', ')}];\n`,
  );
  await writeFile(
    join(project, 'every-entry.mjs'),
    `const specifiers = ${JSON.stringify(specifiers)};\n` +
      `for (const specifier of specifiers) console.log(specifier, Object.keys(await import(specifier)).length);\n`,
  );
  await writeFile(
    join(project, 'every-json.mjs'),
    `const specifiers = ${JSON.stringify(await jsonExports())};\n` +
      "for (const specifier of specifiers) console.log(specifier, (await import(specifier, { with: { type: 'json' } })).default.$schema);\n",
  );
  // A browser app on @youyou/client (and the contracts it speaks), for Vite and esbuild.
  await mkdir(join(project, 'web-app'));
  await writeFile(
    join(project, 'web-app', 'main.js'),
    "import { createWorkbenchClient } from '@youyou/client';\nimport * as contracts from '@youyou/contracts';\n" +
      'document.body.textContent = typeof createWorkbenchClient + Object.keys(contracts).length;\n',
  );
  await writeFile(
    join(project, 'web-app', 'index.html'),
    '<!doctype html><html><body><script type="module" src="./main.js"></script></body></html>\n',
  );
  await writeFile(
    join(project, 'tsconfig.bundler.json'),
    JSON.stringify({
      extends: './tsconfig.json',
      compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' },
      include: ['every-entry.ts'],
    }),
  );
  await writeFile(
    join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2023',
        // DOM: hono's declarations (under @youyou/server's) name WebSocket event types.
        lib: ['ES2023', 'DOM'],
        types: ['node'],
        strict: true,
        noEmit: true,
        // Our declarations are checked too, as a strict consumer would.
        skipLibCheck: false,
      },
      include: ['*.ts'],
    }),
  );
}, SETUP_TIMEOUT_MS);

describe('the published tarballs', () => {
  it('each carry LICENSE and README.md', () => {
    for (const item of packed) {
      const paths = item.files.map((file) => file.path);
      expect(paths, item.name).toContain('LICENSE');
      expect(paths, item.name).toContain('README.md');
    }
  });

  it('ship no source map naming a file the tarball lacks', async () => {
    for (const item of packed)
      expect(await danglingMapSources(item, join(project, 'node_modules', item.name)), item.name).toEqual([]);
  });

  it('stay under their packed and installed size bounds', async () => {
    for (const item of packed) {
      const bound = SIZE_BOUNDS[item.name];
      expect(bound, `${item.name} has a size bound`).toBeDefined();
      if (bound === undefined) continue;
      expect(item.size, `${item.name} packed bytes`).toBeLessThanOrEqual(bound.packed);
      expect(await installedBytes(project, item.name), `${item.name} installed bytes`).toBeLessThanOrEqual(
        bound.installed,
      );
    }
  });
});

describe('the packed packages in a bundler', () => {
  it('type-check a TypeScript consumer with moduleResolution Bundler (every entry point)', async () => {
    const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
    const result = await run('node', [tsc, '-p', 'tsconfig.bundler.json'], {
      cwd: project,
      env: withNode(24),
    });
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('bundle a browser app importing @youyou/client with esbuild', async () => {
    // esbuild's install step puts its native binary where its bin script was.
    const result = await run(
      join(project, 'node_modules/.bin/esbuild'),
      ['web-app/main.js', '--bundle', '--platform=browser', '--format=esm', '--outfile=out/esbuild.js'],
      { cwd: project, env: withNode(24) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await readFile(join(project, 'out/esbuild.js'), 'utf8')).toContain('createWorkbenchClient');
  });

  it('build a Vite app importing @youyou/client, in development mode (where Vite applies `development`)', async () => {
    const result = await run(
      'node',
      [
        'node_modules/vite/bin/vite.js',
        'build',
        'web-app',
        '--mode',
        'development',
        '--outDir',
        '../out/vite',
      ],
      { cwd: project, env: withNode(24) },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(await readdir(join(project, 'out/vite/assets'))).not.toEqual([]);
  });
});

afterAll(async () => {
  await registry?.close();
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

describe.each(NODE_MAJORS)('the packed packages on Node %i', (major) => {
  it('run the @youyou/agent README example from a plain .mjs file', async () => {
    const result = await run('node', ['readme-example.mjs'], { cwd: project, env: withNode(major) });
    expect(result.stderr).not.toMatch(/Error|ERR_/);
    expect(result.code).toBe(0);
    const reply = /textReply\('([^']+)'/.exec(
      await firstTypeScriptBlock(join(REPOSITORY, 'packages/agent/README.md')),
    )?.[1];
    if (reply !== undefined) expect(result.stdout).toContain(reply);
  });

  it('import every entry point of every package', async () => {
    const result = await run('node', ['every-entry.mjs'], { cwd: project, env: withNode(major) });
    expect(result.code, result.stderr).toBe(0);
    for (const specifier of entryPoints())
      expect(result.stdout).toMatch(new RegExp(`^${specifier} [1-9]`, 'm'));
  });

  it('import every JSON Schema the packages publish', async () => {
    const specifiers = await jsonExports();
    expect(specifiers.length).toBeGreaterThan(0);
    const result = await run('node', ['every-json.mjs'], { cwd: project, env: withNode(major) });
    expect(result.code, result.stderr).toBe(0);
    for (const specifier of specifiers) expect(result.stdout).toMatch(new RegExp(`^${specifier} \\S`, 'm'));
  });

  it('type-check a TypeScript consumer with module NodeNext (the README example and every entry point)', async () => {
    const tsc = join(REPOSITORY, 'node_modules/typescript/bin/tsc');
    const result = await run('node', [tsc, '-p', 'tsconfig.json'], { cwd: project, env: withNode(major) });
    expect(result.stdout).toBe('');
    expect(result.code).toBe(0);
  });

  it('serve the web UI from youyou serve of npm i -g of the CLI', async () => {
    const home = join(root, `serve-home-${major}`);
    await mkdir(home, { recursive: true });
    const child = spawn('youyou', ['serve', '--port', '0'], {
      cwd: project,
      env: withNode(major, { HOME: home, YOUYOU_HOME: undefined }),
    });
    try {
      const url = await new Promise<string>((found, failed) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1] !== undefined) found(match[1]);
        });
        child.once('exit', (code) => failed(new Error(`youyou serve exited with ${code}: ${output}`)));
      });
      const response = await fetch(new URL('/', url));
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('<div id="root"');
      expect(html).not.toContain('not built');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('run youyou --version and youyou doctor from npm i -g of the CLI, with a fresh HOME', async () => {
    const home = join(root, `home-${major}`);
    await mkdir(home, { recursive: true });
    // The suite's own YOUYOU_HOME (vitest.config.ts) would hide the fresh HOME's ~/.youyou.
    const environment = withNode(major, { HOME: home, YOUYOU_HOME: undefined });
    const version = await run('youyou', ['--version'], { cwd: project, env: environment });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    const doctor = await run('youyou', ['doctor', '--json'], { cwd: project, env: environment });
    expect(doctor.code, doctor.stderr).toBe(0);
    const report = JSON.parse(doctor.stdout) as { home: string };
    expect(report.home).toBe(join(home, '.youyou'));
    const node = await run('node', ['-p', 'process.versions.node'], { cwd: project, env: environment });
    expect(node.stdout.trim().split('.')[0]).toBe(String(major));
  });
});
