// Full-text search over 100,000 knowledge chunks (issue 12, spec §4.12), on SQLite (FTS5 trigram)
// and PostgreSQL (pg_trgm), both ranked by bm25 in SQL over bounded candidates (decision 0021), through YouYou's Retriever (ranking, filters,
// citations with highlighted snippets) side by side with a raw baseline on the same rows: the bare
// FTS5 MATCH … ORDER BY rank on SQLite, the bare indexed ILIKE on PostgreSQL (no ranking, no
// citation). Three queries: a rare phrase, an id-like term, a term in most chunks — each in Latin
// and Chinese. Target: p95 < 50 ms for all three on both tiers.
//
//   node --conditions=@youyou/source --import tsx bench/documents/fts.ts [--chunks 100000] [--runs 40] [--skip-postgres]
//
// PostgreSQL: YOUYOU_BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); the
// benchmark works in a schema of its own and drops it. Prints markdown tables on stdout.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import {
  KnowledgeRepository,
  KnowledgeRetriever,
  migrateToLatest,
  openDatabase,
  type WorkbenchDatabase,
} from '@youyou/server';
import { sql } from 'kysely';
import pg from 'pg';

const { values } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '40' },
    'skip-postgres': { type: 'boolean', default: false },
  },
});
const CHUNKS = Number(values.chunks);
const RUNS = Number(values.runs);
const PER_ITEM = 100;
const POSTGRES_URL = process.env['YOUYOU_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A deterministic generator, so both tiers index the same text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tor',
  'vex',
  'sul',
  'pra',
  'dion',
  'quel',
  'zar',
  'fen',
  'bru',
  'nix',
  'ost',
  'wel',
];
const HAN =
  '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方又如前所本见经头面公同三已老从动两长知民样现分将外但身些与高意进把法此实回二理美点月明其种声全工己话儿者向情部正名定女问力机给等几很业最间新什打便位因重被走电四第门相次东政海口使教西再平真听世气信北少关并内加化由却代军产入先山五太水万市眼体别处总才场师书比住员九笑性通目华报立马命张活难神数件安表原车白应路期叫死常提感金何更反合放做系统';

const LATIN_WORDS = Array.from({ length: 4000 }, (_, index) => {
  const next = random(index + 1);
  let word = '';
  const parts = 2 + Math.floor(next() * 2);
  for (let part = 0; part < parts; part += 1) word += SYLLABLES[Math.floor(next() * SYLLABLES.length)];
  return word;
});

interface Corpus {
  texts: string[];
  headings: string[];
}

/** Half Latin, half Chinese; "report" and "系统" in about nine chunks of ten; planted rarities. */
function corpus(): Corpus {
  const next = random(42);
  const texts: string[] = [];
  const headings: string[] = [];
  for (let index = 0; index < CHUNKS; index += 1) {
    const chinese = index % 2 === 1;
    let text = '';
    if (chinese) {
      while (text.length < 220) {
        let sentence = '';
        const length = 12 + Math.floor(next() * 20);
        for (let at = 0; at < length; at += 1) sentence += HAN[Math.floor(next() * HAN.length)];
        text += `${sentence}。`;
      }
      if (next() < 0.9) text = `${text.slice(0, 40)}系统${text.slice(40)}`;
    } else {
      const words: string[] = [];
      while (words.join(' ').length < 500)
        words.push(LATIN_WORDS[Math.floor(next() * LATIN_WORDS.length)] ?? 'ka');
      if (next() < 0.9) words.splice(Math.floor(next() * words.length), 0, 'report');
      text = `${words.join(' ')}.`;
    }
    if (index === 7_777 || index === Math.floor(CHUNKS * 0.61) * 2)
      text += ' The quarterly revenue reconciliation was signed.';
    if (index === 12_345 || index === 64_321) text += '季度营收对账已经完成。';
    // Planted in chunks of the searched project (items whose number does not end in 9).
    if (index === 47_000) text += ' Invoice INV-2024-004217 is overdue.';
    if (index === 56_001) text += '合同编号HT-2025-0093已归档。';
    texts.push(text);
    headings.push(
      chinese
        ? `第${Math.floor(index / PER_ITEM)}章 › 概述`
        : `Chapter ${Math.floor(index / PER_ITEM)} › Overview`,
    );
  }
  return { texts, headings };
}

async function load(database: WorkbenchDatabase, data: Corpus): Promise<void> {
  const { db } = database;
  const now = Date.now();
  await db
    .insertInto('projects')
    .values({ id: 'bench', owner: null, name: 'bench', directory: null, created_at: now, updated_at: now })
    .execute();
  await db
    .insertInto('projects')
    .values({ id: 'other', owner: null, name: 'other', directory: null, created_at: now, updated_at: now })
    .execute();
  const items = Math.ceil(CHUNKS / PER_ITEM);
  const itemRows = Array.from({ length: items }, (_, index) => ({
    id: `item-${index}`,
    // One item in ten belongs to another project: the filter has something to filter.
    project_id: index % 10 === 9 ? 'other' : 'bench',
    source: 'upload',
    source_id: `upload-${index}`,
    document_id: `document-${index}`,
    title: `Document ${index}.pdf`,
    media_type: 'application/pdf',
    status: 'indexed',
    error_code: null,
    error_message: null,
    chunk_count: PER_ITEM,
    embedded_count: 0,
    attempts: 1,
    source_version: 1,
    indexed_at: now,
    created_at: now,
    updated_at: now,
  }));
  for (let start = 0; start < itemRows.length; start += 500)
    await db
      .insertInto('knowledge_items')
      .values(itemRows.slice(start, start + 500))
      .execute();
  const batch = database.dialect === 'sqlite' ? 500 : 2000;
  await db.transaction().execute(async (transaction) => {
    for (let start = 0; start < CHUNKS; start += batch) {
      const rows = [];
      for (let index = start; index < Math.min(CHUNKS, start + batch); index += 1) {
        const item = Math.floor(index / PER_ITEM);
        rows.push({
          knowledge_id: `item-${item}`,
          project_id: item % 10 === 9 ? 'other' : 'bench',
          source: 'upload',
          ordinal: index % PER_ITEM,
          version: 1,
          text: data.texts[index] ?? '',
          heading_path: JSON.stringify((data.headings[index] ?? '').split(' › ')),
          heading_text: data.headings[index] ?? '',
          location: JSON.stringify({ page: 1 + (index % PER_ITEM) }),
          block_start: index % PER_ITEM,
          block_end: index % PER_ITEM,
          created_at: now,
        });
      }
      await transaction.insertInto('knowledge_chunks').values(rows).execute();
    }
  });
  if (database.dialect === 'postgres') await sql`analyze knowledge_chunks`.execute(db);
  else await sql`insert into knowledge_fts (knowledge_fts) values ('optimize')`.execute(db);
}

const QUERIES: readonly { name: string; query: string; raw: string }[] = [
  { name: 'rare phrase (Latin)', query: '"revenue reconciliation"', raw: 'revenue reconciliation' },
  { name: 'rare phrase (Chinese)', query: '季度营收对账', raw: '季度营收对账' },
  { name: 'id-like term', query: 'INV-2024-004217', raw: 'INV-2024-004217' },
  { name: 'id-like term (Chinese context)', query: 'HT-2025-0093', raw: 'HT-2025-0093' },
  { name: 'term in most chunks (Latin)', query: 'report', raw: 'report' },
  { name: 'term in most chunks (Chinese)', query: '系统', raw: '系统' },
];

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
}

async function time(run: () => Promise<number>): Promise<{ p50: number; p95: number; hits: number }> {
  let hits = await run();
  const times: number[] = [];
  for (let index = 0; index < RUNS; index += 1) {
    const started = performance.now();
    hits = await run();
    times.push(performance.now() - started);
  }
  times.sort((left, right) => left - right);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95), hits };
}

function raw(database: WorkbenchDatabase, term: string): () => Promise<number> {
  const { db } = database;
  if (database.dialect === 'sqlite') {
    // FTS5 needs three characters a term; the raw baseline of a two-character term is LIKE.
    if ([...term].length < 3)
      return async () =>
        (
          await sql`select id from knowledge_chunks where project_id = 'bench' and text like ${`%${term}%`} limit 10`.execute(
            db,
          )
        ).rows.length;
    return async () =>
      (
        await sql`select rowid from knowledge_fts where knowledge_fts match ${`"${term}"`} order by rank limit 10`.execute(
          db,
        )
      ).rows.length;
  }
  return async () =>
    (
      await sql`select id from knowledge_chunks c where (c.heading_text || ' ' || c.text) ilike ${`%${term}%`} limit 10`.execute(
        db,
      )
    ).rows.length;
}

async function measureTier(label: string, database: WorkbenchDatabase, data: Corpus): Promise<string[]> {
  const started = performance.now();
  await migrateToLatest(database);
  await load(database, data);
  process.stderr.write(
    `${label}: ${CHUNKS} chunks loaded and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  const retriever = new KnowledgeRetriever({
    db: database.db,
    dialect: database.dialect,
    repository: new KnowledgeRepository(database.db),
  });
  const rows: string[] = [];
  for (const { name, query, raw: term } of QUERIES) {
    const ours = await time(
      async () =>
        (await retriever.search({ query, project_id: 'bench', top_k: 10, mode: 'fulltext' })).hits.length,
    );
    const baseline = await time(raw(database, term));
    rows.push(
      `| ${label} | ${name} | ${ours.p50.toFixed(1)} | ${ours.p95.toFixed(1)} | ${ours.hits} | ${baseline.p50.toFixed(1)} | ${baseline.p95.toFixed(1)} | ${(ours.p95 / Math.max(0.01, baseline.p95)).toFixed(2)}× | ${ours.p95 < 50 ? 'yes' : '**no**'} |`,
    );
    process.stderr.write(
      `${label} ${name}: p95 ${ours.p95.toFixed(1)} ms (raw ${baseline.p95.toFixed(1)} ms)\n`,
    );
  }
  return rows;
}

const data = corpus();
const rows: string[] = [];
const folder = await mkdtemp(join(tmpdir(), 'youyou-fts-'));
if (process.env['YOUYOU_BENCH_SKIP_SQLITE'] !== '1')
  try {
    const sqlite = openDatabase({ sqliteFile: join(folder, 'bench.db') });
    try {
      rows.push(...(await measureTier('SQLite', sqlite, data)));
    } finally {
      await sqlite.close();
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }

if (!values['skip-postgres']) {
  const schema = `yy_bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  let reachable = true;
  try {
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query('create extension if not exists pg_trgm').catch(() => {});
  } catch (error) {
    reachable = false;
    process.stderr.write(`PostgreSQL skipped: ${(error as Error).message}\n`);
  }
  if (reachable) {
    const url = new URL(POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema},public`);
    const postgres = openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
    try {
      rows.push(...(await measureTier('PostgreSQL', postgres, data)));
    } finally {
      await postgres.close();
      if (process.env['YOUYOU_BENCH_KEEP_SCHEMA'] === '1') process.stderr.write(`kept schema ${schema}\n`);
      else await admin.query(`drop schema if exists ${schema} cascade`);
      await admin.end();
    }
  }
}

console.log(
  `Full-text search over ${CHUNKS.toLocaleString('en')} chunks (half Latin, half Chinese; one project of ten filtered out), top 10, ${RUNS} runs after a warm-up; times in ms.\n`,
);
console.log(
  '| tier | query | YouYou p50 | YouYou p95 | hits | raw p50 | raw p95 | p95 ratio | p95 < 50 ms |',
);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) console.log(row);
console.log(
  '\nYouYou: the Retriever — bm25 ranking, project filter, citations with highlighted snippets. Raw: SQLite `MATCH … ORDER BY rank LIMIT 10` on the FTS5 table (LIKE for a two-character term); PostgreSQL `ILIKE` on the trigram-indexed column, unranked.',
);
