import { MIGRATIONS } from '../database/migrations/index.ts';
import { BUILD_MANIFEST } from './build-manifest.ts';
import { SERVER_VERSION } from './server-version.ts';

/** Where `versionCommand` writes (a `CommandIo` does). */
export interface VersionIo {
  stdout(text: string): void;
}

/**
 * `youyou version`.
 *
 * @example
 * versionCommand(io); // "youyou-server 0.1.0 (node v24.…)"
 */
export function versionCommand(
  io: VersionIo = { stdout: (text) => void process.stdout.write(text) },
  argv: readonly string[] = [],
): number {
  if (!argv.includes('--json')) {
    io.stdout(`youyou-server ${SERVER_VERSION} (node ${process.version})\n`);
    return 0;
  }
  // The version manifest (spec §7 P5): what a support request or an upgrade script needs to know.
  const manifest = {
    version: SERVER_VERSION,
    commit: BUILD_MANIFEST?.commit ?? null,
    build_date: BUILD_MANIFEST?.buildDate ?? null,
    schema_version: MIGRATIONS.map((migration) => migration.name).at(-1) ?? null,
    migrations: MIGRATIONS.map((migration) => migration.name),
    ui_hash: BUILD_MANIFEST?.uiHash ?? null,
    node: process.version,
    // The CPU the running binary is for: linux-x64 and linux-arm64 executables ship side by side.
    arch: process.arch,
    single_executable: BUILD_MANIFEST !== undefined,
  };
  io.stdout(`${JSON.stringify(manifest, null, 2)}\n`);
  return 0;
}
