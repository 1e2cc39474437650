export { serveWeb } from './static-files.ts';
