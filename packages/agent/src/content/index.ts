export type {
  ContentBlock,
  FileBlock,
  ImageBlock,
  ImageMediaType,
  TextBlock,
  UserInput,
  UserInputBlock,
} from './content.ts';
export { detectImageFormat } from './image-format.ts';
export { MAX_FILE_BYTES, MAX_IMAGE_BYTES } from './limits.ts';
export { resolveAllowedPath } from './path-guard.ts';
export { resolveInput } from './resolve-input.ts';
export type { RequestedSkill, ResolveInputOptions, ResolvedInput } from './resolve-input.ts';
