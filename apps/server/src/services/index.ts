export type { HttpConfig, HttpEnv, ServerServices } from './services.ts';
