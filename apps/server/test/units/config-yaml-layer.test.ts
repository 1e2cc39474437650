import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigYamlLayer } from '../../src/settings/index.ts';

describe('config.yaml as the user settings layer', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(join(tmpdir(), 'youyou-config-yaml-'));
  });
  afterEach(async () => {
    await rm(home, { recursive: true, force: true });
  });

  it('a hand edit is read back at once, even one of the same size right after a read', async () => {
    const layer = new ConfigYamlLayer(home);
    const file = join(home, 'config.yaml');
    await writeFile(file, 'temperature: 0.4\n');
    expect(await layer.read()).toEqual({ temperature: 0.4 });
    await writeFile(file, 'temperature: 0.9\n');
    expect(await layer.read()).toEqual({ temperature: 0.9 });
  });

  it('an unchanged file reads the same values each time, and a caller changing them changes nothing', async () => {
    const layer = new ConfigYamlLayer(home);
    const file = join(home, 'config.yaml');
    await writeFile(file, 'skills:\n  - one\n');
    // Older than the file-time granularity, so the layer may remember its parse.
    const past = new Date(Date.now() - 60_000);
    await utimes(file, past, past);
    const first = await layer.read();
    (first['skills'] as string[]).push('two');
    expect(await layer.read()).toEqual({ skills: ['one'] });
    await writeFile(file, 'skills:\n  - three\n');
    expect(await layer.read()).toEqual({ skills: ['three'] });
  });

  it('a missing file reads as empty, and so does one that is not a mapping', async () => {
    const layer = new ConfigYamlLayer(home);
    expect(await layer.read()).toEqual({});
    await writeFile(join(home, 'config.yaml'), '- a list\n');
    expect(await layer.read()).toEqual({});
  });

  it('writes through the layer are read back', async () => {
    const layer = new ConfigYamlLayer(home);
    await layer.write({ temperature: 0.3 });
    expect(await layer.read()).toEqual({ temperature: 0.3 });
    await layer.write({ temperature: 0.5 });
    expect(await layer.read()).toEqual({ temperature: 0.5 });
  });
});
