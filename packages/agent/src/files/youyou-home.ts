import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * The YouYou home: `YOUYOU_HOME` when set (made absolute), else `~/.youyou`.
 *
 * @example
 * const home = resolveYouyouHome(); // "/home/me/.youyou"
 * const testHome = resolveYouyouHome({ YOUYOU_HOME: '/tmp/home' }); // "/tmp/home"
 */
export function resolveYouyouHome(environment: NodeJS.ProcessEnv = process.env): string {
  const fromEnvironment = environment['YOUYOU_HOME'];
  if (fromEnvironment !== undefined && fromEnvironment.trim() !== '') return resolve(fromEnvironment);
  return join(homedir(), '.youyou');
}

/**
 * The project layer folder of a working directory: `{cwd}/.youyou`.
 *
 * @example
 * projectLayerDirectory('/work/app'); // "/work/app/.youyou"
 */
export function projectLayerDirectory(cwd: string): string {
  return join(resolve(cwd), '.youyou');
}
