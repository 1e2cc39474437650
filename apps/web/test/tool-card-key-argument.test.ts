import { describe, expect, it } from 'vitest';
import { keyArgumentOf } from '../src/parts/index.ts';

describe('the key argument a collapsed tool card shows', () => {
  it('names the path of a file tool: "read_file · src/index.ts"', () => {
    expect(keyArgumentOf('{"path":"src/index.ts","start_line":3}')).toBe('src/index.ts');
  });

  it('prefers a well-known key over other strings', () => {
    expect(keyArgumentOf('{"glob":"*.ts","query":"needle"}')).toBe('needle');
  });

  it('falls back to the first string and cuts long lines', () => {
    expect(keyArgumentOf(JSON.stringify({ body: `${'x'.repeat(80)}\nsecond line` }))).toBe(
      `${'x'.repeat(59)}…`,
    );
  });

  it('shows nothing for arguments that are not a JSON object or hold no string', () => {
    expect(keyArgumentOf('{"partial": ')).toBeUndefined();
    expect(keyArgumentOf('[1,2]')).toBeUndefined();
    expect(keyArgumentOf('{"count":3}')).toBeUndefined();
  });
});
