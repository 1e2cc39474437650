import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPOSITORY = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without a shell and collects its output; never throws on a non-zero exit.
 * The environment starts from `env` alone when given: nothing of the workspace's leaks in (no
 * NODE_OPTIONS carrying `--conditions=@youyou/source`, which would send Node to sources we do not ship).
 */
export async function run(
  file: string,
  argv: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<RunResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, argv, {
      cwd: options.cwd,
      env: options.env ?? cleanEnvironment(),
      timeout: options.timeoutMs ?? 240_000,
      maxBuffer: 64 * 1024 * 1024,
      encoding: 'utf8',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number | string; stdout?: string; stderr?: string; message: string };
    return {
      code: typeof failed.code === 'number' ? failed.code : 1,
      stdout: failed.stdout ?? '',
      stderr: `${failed.stderr ?? ''}\n${failed.message}`,
    };
  }
}

/**
 * This process's environment without what the workspace run adds: NODE_OPTIONS (it may carry
 * `--conditions=@youyou/source`), npm's `npm_*` settings of the running script, Vitest's variables.
 * The machine's own settings stay (PATH, HOME, a CA bundle the registry needs, proxies).
 */
export function cleanEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key === 'NODE_OPTIONS' || key === 'NODE_ENV' || /^(npm_|VITEST|TEST$)/i.test(key)) continue;
    environment[key] = value;
  }
  return { ...environment, ...extra };
}

/**
 * A Node binary of the given major version: this one when it matches, otherwise the
 * `node-linux-<arch>` package from the npm registry (a plain binary, no install script), kept in
 * node_modules/.cache so later runs do not fetch it again.
 *
 * @example
 * const node22 = await nodeBinary(22);
 */
export async function nodeBinary(major: number): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) === major) return process.execPath;
  const folder = join(REPOSITORY, 'node_modules', '.cache', `node-${major}`);
  const binary = join(folder, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  if (!existsSync(binary)) {
    const npm = await run(
      'npm',
      [
        'install',
        '--prefix',
        folder,
        '--no-audit',
        '--no-fund',
        '--no-save',
        `node-${process.platform}-${process.arch}@${major}`,
      ],
      { cwd: REPOSITORY },
    );
    if (!existsSync(binary))
      throw new Error(`could not install Node ${major} from the registry:\n${npm.stderr}`);
  }
  return binary;
}

/** The first fenced ```ts block of a Markdown file. */
export async function firstTypeScriptBlock(markdownFile: string): Promise<string> {
  const markdown = await readFile(markdownFile, 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(markdown);
  if (block?.[1] === undefined) throw new Error(`${markdownFile} has no \`\`\`ts example`);
  return block[1];
}
