export { PART_RENDERERS, Parts, formatSize } from './part-renderers.tsx';
export type { PartProps } from './part-renderers.tsx';
