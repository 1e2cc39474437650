import { fileURLToPath } from 'node:url';

/** The example extension shipped in the repository (`extensions/example`). */
export const EXAMPLE_EXTENSION = fileURLToPath(new URL('../../../../extensions/example', import.meta.url));
