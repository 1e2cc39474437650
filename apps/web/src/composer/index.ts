export { ACCEPT_ATTRIBUTE, MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES, checkAttachment } from './attachment-rules.ts';
export { Composer } from './composer.tsx';
export type { ComposerProps, ComposerSubmission } from './composer.tsx';
export { useComposerStore } from './composer-store.ts';
export { paletteEntries, parseSkillMessage, slashQuery } from './slash-commands.ts';
export type { PaletteEntry } from './slash-commands.ts';
