export { DataSection } from './data-section.tsx';
export { download } from './download.ts';
