// What planning a run costs (spec §4.7/§4.9): resolving its profile and every run parameter and
// budget through system → user (config.yaml) → project → profile → conversation, against a raw
// baseline of one settings row read, on SQLite. Alone:
//   node --conditions=@youyou/source --import tsx bench/server/run-plan.ts
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateToLatest, openDatabase, planRun } from '@youyou/server';
import { settingsStack } from '@youyou/server/testing';

const ITERATIONS = 2000;

async function time(label: string, run: () => Promise<unknown>): Promise<number> {
  for (let index = 0; index < 100; index++) await run();
  const started = performance.now();
  for (let index = 0; index < ITERATIONS; index++) await run();
  const perCall = (performance.now() - started) / ITERATIONS;
  console.log(`${label.padEnd(44)} ${(perCall * 1000).toFixed(1).padStart(8)} µs`);
  return perCall;
}

const root = await mkdtemp(join(tmpdir(), 'youyou-bench-plan-'));
const database = openDatabase({ sqliteFile: join(root, 'bench.db') });
try {
  await migrateToLatest(database);
  await writeFile(join(root, 'config.yaml'), 'temperature: 0.4\nmax_tokens: 800\n');
  const { settings, profiles, routing } = settingsStack(database, root);
  const now = Date.now();
  await database.db
    .insertInto('projects')
    .values({ id: 'p1', owner: null, name: 'Bench', directory: null, created_at: now, updated_at: now })
    .execute();
  const profile = await profiles.create({
    name: 'Bench',
    systemPrompt: 'Be brief.',
    model: { router: 'chat' },
    parameters: { temperature: 0.2 },
    tools: { allow: ['*'], deny: ['shell'], confirm: [] },
    context: { policy: 'default' },
    hitl: { askOnAmbiguity: true, timeoutSec: null },
    budget: { max_tool_calls: 20 },
  });
  await database.db
    .insertInto('conversations')
    .values({
      id: 'c1',
      owner: null,
      project_id: 'p1',
      title: '',
      title_source: 'none',
      model_id: null,
      active_run_id: null,
      last_seq: 0,
      read_seq: 0,
      profile_id: profile.id,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await settings.write({ layer: 'project', scope_id: 'p1' }, { 'budget.max_tokens': 50_000 });
  await settings.write({ layer: 'conversation', scope_id: 'c1' }, { 'run.reasoning_effort': 'low' });
  const conversation = { id: 'c1', profile_id: profile.id };

  console.log(`Planning a run, ${String(ITERATIONS)} times (SQLite, node ${process.version})`);
  const raw = await time('raw: one settings row', () =>
    database.db
      .selectFrom('settings')
      .select('value')
      .where('scope', '=', 'user')
      .where('key', '=', 'models.chat')
      .executeTakeFirst(),
  );
  const plan = await time('planRun: profile + 8 keys × 4 layers', () =>
    planRun({ settings, profiles, routing }, conversation),
  );
  console.log(
    `ratio planRun / raw: ${(plan / raw).toFixed(1)}× (one plan per run, before its first model call)`,
  );
} finally {
  await database.close();
  await rm(root, { recursive: true, force: true });
}
