export { createApiRoutes, createApp } from './app.ts';
export { PAGE_CSP, TOKEN_COOKIE } from './middleware/security.ts';
export type { HttpConfig, HttpEnv, ServerServices } from '../services/index.ts';
