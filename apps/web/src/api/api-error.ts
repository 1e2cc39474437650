/**
 * A message a person can read, for any thrown value.
 *
 * @example
 * toast(errorMessage(error));
 */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
