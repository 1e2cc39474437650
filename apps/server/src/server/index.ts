export { startServer } from './start-server.ts';
export type { RunningServer } from './start-server.ts';
export { DEFAULT_PORT, resolveServerOptions, SERVER_VERSION } from './server-options.ts';
export type { ResolvedServerOptions, ServerOptions } from './server-options.ts';
export { BUILD_MANIFEST } from './build-manifest.ts';
export type { BuildManifest } from './build-manifest.ts';
