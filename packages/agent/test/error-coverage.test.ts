import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_ERROR_CODES } from '@youyou/agent';
import { describe, expect, it } from 'vitest';

const testFolder = import.meta.dirname;
const sourceFolder = path.join(testFolder, '..', 'src');

async function readTree(folder: string): Promise<string> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter(
    (entry) =>
      entry.isFile() && entry.name.endsWith('.ts') && entry.name !== path.basename(import.meta.filename),
  );
  const texts = await Promise.all(
    files.map((entry) => readFile(path.join(entry.parentPath, entry.name), 'utf8')),
  );
  return texts.join('\n');
}

/**
 * Codes the agent defines for its hosts to raise through the one error class, not raised by the
 * agent itself: a host's context assembler (the workbench's, seed 003 §4.10) fails a model call
 * with CONTEXT_BUDGET_EXCEEDED when the request cannot fit the window (decision 0035).
 */
const RAISED_BY_HOSTS: readonly string[] = ['CONTEXT_BUDGET_EXCEEDED'];

describe('error codes (spec §10)', () => {
  it('every code is produced by the source and asserted by a test', async () => {
    const [source, tests] = await Promise.all([readTree(sourceFolder), readTree(testFolder)]);
    const producedElsewhere = source.replace(/export const AGENT_ERROR_CODES = \[[\s\S]*?\] as const;/, '');
    const missing = AGENT_ERROR_CODES.filter(
      (code) =>
        !RAISED_BY_HOSTS.includes(code) &&
        !producedElsewhere.includes(`'${code}'`) &&
        !producedElsewhere.includes(`[${code}]`),
    );
    const untested = AGENT_ERROR_CODES.filter((code) => !tests.includes(code));
    expect(missing).toEqual([]);
    expect(untested).toEqual([]);
  });
});
