export { startServer } from './start-server.ts';
export type { RunningServer } from './start-server.ts';
export { DEFAULT_PORT, resolveServerOptions } from './server-options.ts';
export { SERVER_VERSION } from '../version/index.ts';
export type { ResolvedServerOptions, ServerOptions } from './server-options.ts';
export { BUILD_MANIFEST } from '../version/index.ts';
export type { BuildManifest } from '../version/index.ts';
