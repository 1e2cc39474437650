// `@youyou/server/version`: the version, the build manifest and `youyou version`, without the
// server. The CLI loads this entry for `youyou version`, which then starts without evaluating
// the whole server (docs/decisions/0025-executable-cold-start.md).
export { BUILD_MANIFEST } from './build-manifest.ts';
export type { BuildManifest } from './build-manifest.ts';
export { PACKAGE_FOLDER, SERVER_VERSION } from './server-version.ts';
export { versionCommand } from './version-command.ts';
export type { VersionIo } from './version-command.ts';
