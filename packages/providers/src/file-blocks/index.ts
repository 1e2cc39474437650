export { fileAsText } from './file-text.ts';
