export { silentLogger, stderrLogger } from './logger.ts';
export type { Logger } from './logger.ts';
