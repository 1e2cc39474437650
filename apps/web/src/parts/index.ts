export { PART_RENDERERS, Parts, formatSize, keyArgumentOf } from './part-renderers.tsx';
export type { PartProps } from './part-renderers.tsx';
