export type { UiAction, UiActionResult } from '@youyou/contracts';

/** The server's readable argument lines (`details.arguments` of a confirmation), checked. */
export function readableArgumentLines(value: unknown): { name: string; value: string }[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((line: unknown) =>
    typeof line === 'object' &&
    line !== null &&
    typeof (line as { name?: unknown }).name === 'string' &&
    typeof (line as { value?: unknown }).value === 'string'
      ? [{ name: (line as { name: string }).name, value: (line as { value: string }).value }]
      : [],
  );
}
