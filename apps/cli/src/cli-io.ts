/**
 * Where the command reads its environment and writes its output; tests pass their own.
 *
 * @example
 * const lines: string[] = [];
 * const io: CliIo = { ...processIo(), stdout: (text) => lines.push(text) };
 */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  environment: NodeJS.ProcessEnv;
  cwd: string;
}

/**
 * The real process: stdout, stderr, `process.env`, `process.cwd()`.
 *
 * @example
 * await main(['doctor'], processIo());
 */
export function processIo(): CliIo {
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    environment: process.env,
    cwd: process.cwd(),
  };
}

/**
 * A command-line mistake: printed with the usage hint, exit code 2.
 *
 * @example
 * throw new UsageError('components needs an action');
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Lays out rows as aligned columns. */
export function table(rows: readonly (readonly string[])[], indent = '  '): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  return rows
    .map((row) =>
      `${indent}${row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  ')}`.trimEnd(),
    )
    .join('\n');
}
