/** Largest image accepted in a message (spec §8). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Largest file accepted in a message (spec §8). */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
