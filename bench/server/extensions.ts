/**
 * Extensions (issue 15): a declarative HTTP tool call against a bare `fetch` of the same endpoint,
 * and the hot reload of a changed asset.
 * - Tool call: a loopback JSON service; the baseline is `fetch` + reading the body; the YouYou row
 *   is the declarative tool's call (templates, settings and the secret header, the allowed-domain
 *   check, manual redirect handling, the timeout, JSONPath-style selection, the size cap, secret
 *   blanking). Target: ≤ 1.2× + 1 ms.
 * - Hot reload: a server with the example extension installed; one asset (the tool file) is
 *   rewritten and the time until the new definition is active is taken (fs.watch → debounce →
 *   fail-closed load → swap), next to the load alone.
 *   node --conditions=@youyou/source bench/server/extensions.ts [--calls 2000] [--repetitions 5] [--reloads 20]
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DeclarativeHttpToolSchema, type ExtensionPreview } from '@youyou/contracts';
import { callHttpTool, loadExtension, startServer, type LiveHttpTool } from '@youyou/server';
import { format, median, REPOSITORY, temporaryFolder } from './support.ts';

const { values } = parseArgs({
  options: {
    calls: { type: 'string', default: '2000' },
    repetitions: { type: 'string', default: '5' },
    reloads: { type: 'string', default: '20' },
  },
});
const calls = Number(values.calls);
const repetitions = Number(values.repetitions);
const reloads = Number(values.reloads);
const EXAMPLE = join(REPOSITORY, 'extensions/example');

const body = JSON.stringify({
  city: 'Paris',
  current: { temperature: 18, conditions: 'sunny', wind_kmh: 12 },
  forecast: Array.from({ length: 50 }, (_, day) => ({ day, temperature: 15 + (day % 7) })),
});
const service = createServer((_request, response) => {
  response.setHeader('content-type', 'application/json');
  response.end(body);
});
await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', () => resolve()));
const endpoint = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;

const definition = DeclarativeHttpToolSchema.parse(
  JSON.parse(await readFile(join(EXAMPLE, 'tools/city-weather.json'), 'utf8')),
);
const settings: Record<string, unknown> = { endpoint, units: 'metric' };
const live: LiveHttpTool = {
  definition,
  extensionId: 'example',
  domains: ['127.0.0.1', 'localhost'],
  setting: async (key) => settings[key],
  secret: async () => 'sk-bench-secret',
};
const signal = new AbortController().signal;

/** Microseconds per call over `calls` sequential calls. */
async function timed(call: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < calls; index++) await call(index);
  return ((performance.now() - started) * 1000) / calls;
}

const variants = [
  {
    label: 'bare fetch + read the body (baseline)',
    once: () =>
      timed(async (index) => {
        const response = await fetch(`${endpoint}/weather/city${index}?units=metric`, {
          headers: { 'x-api-key': 'sk-bench-secret', accept: 'application/json' },
        });
        await response.text();
      }),
    runs: [] as number[],
  },
  {
    label: 'YouYou declarative HTTP tool call',
    once: () =>
      timed(async (index) => {
        const output = await callHttpTool(live, { city: `city${index}` }, signal);
        if (output.isError === true) throw new Error(output.content);
      }),
    runs: [] as number[],
  },
];

const folder = await temporaryFolder('extensions');
try {
  for (const variant of variants) await variant.once();
  for (let round = 0; round < repetitions; round++)
    for (const variant of variants) variant.runs.push(await variant.once());
  const baseline = median(variants[0]?.runs ?? []);

  // Hot reload through a running server.
  const server = await startServer({
    port: 0,
    dataDirectory: join(folder.path, 'data'),
    home: join(folder.path, 'home'),
    logLevel: 'silent',
  });
  const reloadTimes: number[] = [];
  const loadTimes: number[] = [];
  try {
    const host = server.services.extensions;
    const preview: ExtensionPreview = await host.preview(EXAMPLE);
    if (preview.permissions === null) throw new Error('the example does not load');
    await host.install({ staging_id: preview.staging_id, accepted_permissions: preview.permissions });
    const installed = join(folder.path, 'data', 'extensions', 'installed', 'example');
    const file = join(installed, 'tools', 'city-weather.json');
    const original = JSON.parse(await readFile(file, 'utf8')) as { description: string };
    for (let round = 0; round < reloads; round++) {
      const description = `Weather, edit ${round}`;
      const started = performance.now();
      await writeFile(file, JSON.stringify({ ...original, description }));
      for (;;) {
        const tool = (await server.services.catalog.list()).find((entry) => entry.name === 'city_weather');
        if (tool?.description === description) break;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      reloadTimes.push(performance.now() - started);
      const loadStarted = performance.now();
      await loadExtension(installed);
      loadTimes.push(performance.now() - loadStarted);
    }
  } finally {
    await server.close();
  }

  const lines = [
    `${format(calls)} sequential calls of the example extension's \`city_weather\` tool against a loopback JSON service (a 1.6 kB answer), median of ${repetitions} rounds after a warm-up.`,
    '',
    '| path | µs per call | ÷ bare fetch | over bare fetch (µs) | target ≤ 1.2× + 1 ms |',
    '| --- | ---: | ---: | ---: | --- |',
    ...variants.map((variant, index) => {
      const perCall = median(variant.runs);
      const target = index === 0 ? '' : perCall <= baseline * 1.2 + 1000 ? 'met' : 'missed';
      return `| ${variant.label} | ${format(perCall, 1)} | ${(perCall / baseline).toFixed(2)} | ${format(perCall - baseline, 1)} | ${target} |`;
    }),
    '',
    `Hot reload of a changed asset (the tool file rewritten), ${reloads} edits: ${format(median(reloadTimes), 1)} ms median from the write to the new definition being active (includes the 150 ms debounce that gathers an editor's several writes); the fail-closed load of the whole example alone: ${format(median(loadTimes), 2)} ms.`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  service.close();
  await folder.remove();
}
