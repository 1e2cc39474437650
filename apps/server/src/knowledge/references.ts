import { readFile } from 'node:fs/promises';
import type { UserInputBlock } from '@youyou/agent';
import { blocksToText, type MessageReference, type ReferenceCandidate } from '@youyou/contracts';
import type { ArtifactService } from '../artifacts/index.ts';
import { ApiError } from '../errors/index.ts';
import { walkFiles } from '../tools/file-walk.ts';
import { WorkspaceScope } from '../tools/workspace-scope.ts';
import type { KnowledgeService } from './knowledge-service.ts';
import { markedSnippet } from './snippet.ts';

/** How much of one referenced object goes into the turn; the rest is a tool call away. */
const INLINE_LIMIT = 64 * 1024;
/** Files the picker walks in a project's directory before it stops looking. */
const WALK_LIMIT = 5000;

function matches(label: string, query: string): number {
  if (query === '') return 1;
  const lower = label.toLowerCase();
  const at = lower.indexOf(query);
  if (at === -1) return 0;
  return at === 0 ? 3 : 2;
}

/**
 * The `@` picker's candidates (spec §4.14): the project's knowledge as a whole, its documents
 * (parsed uploads) and artifacts, and files of its directory, filtered by `query` (case-blind
 * substring; a prefix ranks first); documents whose text matches the query come too, with the
 * citation of the passage.
 *
 * @example
 * await referenceCandidates({ knowledge, artifacts, projectId: 'p1', directory: '/work/p1', query: 'plan', limit: 20 });
 */
export async function referenceCandidates(options: {
  knowledge: KnowledgeService;
  artifacts: ArtifactService;
  projectId: string | null;
  directory: string | null;
  conversationId?: string;
  query: string;
  limit: number;
}): Promise<ReferenceCandidate[]> {
  const query = options.query.trim().toLowerCase();
  const scored: { candidate: ReferenceCandidate; score: number }[] = [];
  const add = (candidate: ReferenceCandidate): void => {
    const score = Math.max(matches(candidate.label, query), matches(candidate.detail, query) > 0 ? 1 : 0);
    if (
      score > 0 &&
      !scored.some((entry) => entry.candidate.kind === candidate.kind && entry.candidate.id === candidate.id)
    )
      scored.push({ candidate, score });
  };
  const list = await options.knowledge.list(options.projectId);
  if (list.items.length > 0)
    add({
      kind: 'knowledge',
      id: options.projectId ?? '',
      label: 'knowledge',
      detail: `${list.counts.indexed}/${list.items.length}`,
    });
  for (const item of list.items)
    if (item.source === 'upload')
      add({ kind: 'document', id: item.id, label: item.title, detail: item.media_type });
  if (query !== '' && list.items.some((item) => item.source === 'upload')) {
    // Documents whose text (not only their name) matches, each with its best passage's citation.
    const { hits } = await options.knowledge.retriever.search({
      query: options.query.trim().slice(0, 1000),
      project_id: options.projectId,
      sources: ['upload'],
      top_k: Math.min(50, options.limit),
    });
    for (const hit of hits) {
      const { citation } = hit;
      const known = scored.find(
        (entry) => entry.candidate.kind === 'document' && entry.candidate.id === citation.knowledge_id,
      );
      if (known !== undefined) known.candidate.citation ??= citation;
      else
        scored.push({
          candidate: {
            kind: 'document',
            id: citation.knowledge_id,
            label: citation.title,
            detail: citation.snippet,
            citation,
          },
          score: 1,
        });
    }
  }
  const artifacts =
    options.projectId !== null
      ? await options.artifacts.list({ projectId: options.projectId })
      : options.conversationId !== undefined
        ? await options.artifacts.list({ conversationId: options.conversationId })
        : [];
  for (const artifact of artifacts)
    if (artifact.kind !== 'upload')
      add({
        kind: 'artifact',
        id: artifact.id,
        label: artifact.title,
        detail: `${artifact.kind} · v${artifact.version}`,
      });
  if (options.directory !== null) {
    let walked = 0;
    try {
      for await (const entry of walkFiles(options.directory, { maxDepth: 8 })) {
        if (entry.directory) continue;
        walked += 1;
        const name = entry.relative.slice(entry.relative.lastIndexOf('/') + 1);
        const score = Math.max(matches(name, query), matches(entry.relative, query) > 0 ? 1 : 0);
        if (score > 0)
          scored.push({
            candidate: { kind: 'file', id: entry.relative, label: name, detail: entry.relative },
            score,
          });
        if (walked >= WALK_LIMIT || scored.length >= options.limit * 4) break;
      }
    } catch {
      // A directory that cannot be read offers no files; the rest of the picker still works.
    }
  }
  const kindOrder = { knowledge: 0, document: 1, artifact: 2, file: 3 } as const;
  scored.sort(
    (left, right) =>
      right.score - left.score ||
      kindOrder[left.candidate.kind] - kindOrder[right.candidate.kind] ||
      left.candidate.label.localeCompare(right.candidate.label),
  );
  return scored.slice(0, options.limit).map((entry) => entry.candidate);
}

/**
 * Checks the `@` references of a message before its run starts: each must name something that
 * exists (a file inside the project's directory, an artifact, a knowledge item). NOT_FOUND or
 * PATH_NOT_ALLOWED name the first that does not.
 *
 * @example
 * await checkReferences(references, { knowledge, artifacts, directory: '/work/p1' });
 */
export async function checkReferences(
  references: readonly MessageReference[],
  options: { knowledge: KnowledgeService | undefined; artifacts: ArtifactService; directory: string | null },
): Promise<void> {
  for (const reference of references) {
    switch (reference.kind) {
      case 'file': {
        if (options.directory === null)
          throw new ApiError(
            'INVALID_INPUT',
            `@${reference.label}: this conversation's project has no directory.`,
            {
              details: { reference },
            },
          );
        const scope = await WorkspaceScope.create(options.directory, []);
        await scope.resolve(reference.id).catch((error: unknown) => {
          throw new ApiError(
            'NOT_FOUND',
            `@${reference.label}: ${error instanceof Error ? error.message : 'no such file'}`,
            { details: { resource: 'file', id: reference.id } },
          );
        });
        break;
      }
      case 'artifact':
        await options.artifacts.get(reference.id);
        break;
      case 'document':
        await options.knowledge?.get(reference.id);
        break;
      case 'knowledge':
        break;
    }
  }
}

function cut(text: string, what: string): string {
  if (Buffer.byteLength(text) <= INLINE_LIMIT) return text;
  const head = Buffer.from(text)
    .subarray(0, INLINE_LIMIT)
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return `${head}\n[… cut at ${INLINE_LIMIT} bytes: ${what}]`;
}

function attribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * The text blocks that put a turn's `@` references into the agent's input (spec §4.10
 * "@引用显式挂载", §4.14): a file's text, an artifact's newest version, a document's parsed text
 * (each cut at 64 KB with the tool that reads the rest), and for `@knowledge` the best matches of
 * the turn's text in the project's knowledge, with their citation links.
 *
 * @example
 * agentInput.push(...(await referenceBlocks(input.references ?? [], { knowledge, artifacts, directory, text, projectId })));
 */
export async function referenceBlocks(
  references: readonly MessageReference[],
  options: {
    knowledge: KnowledgeService | undefined;
    artifacts: ArtifactService;
    directory: string | null;
    projectId: string | null;
    text: string;
  },
): Promise<UserInputBlock[]> {
  const blocks: UserInputBlock[] = [];
  for (const reference of references) {
    try {
      blocks.push({ type: 'text', text: await referenceText(reference, options) });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      blocks.push({
        type: 'text',
        text: `<reference kind="${reference.kind}" id="${attribute(reference.id)}" error="true">This reference could not be read: ${message}</reference>`,
      });
    }
  }
  return blocks;
}

async function referenceText(
  reference: MessageReference,
  options: Parameters<typeof referenceBlocks>[1],
): Promise<string> {
  switch (reference.kind) {
    case 'file': {
      if (options.directory === null) throw new Error('the project has no directory');
      const scope = await WorkspaceScope.create(options.directory, []);
      const real = await scope.resolve(reference.id);
      const text = await readFile(real, 'utf8');
      return `<file path="${attribute(reference.id)}">\n${cut(text, 'read the rest with read_file')}\n</file>`;
    }
    case 'artifact': {
      const artifact = await options.artifacts.get(reference.id);
      const version = await options.artifacts.version(artifact.id, artifact.version);
      return `<artifact id="${artifact.id}" title="${attribute(artifact.title)}" kind="${artifact.kind}" version="${artifact.version}">\n${cut(version.content ?? '', 'read the rest with read_artifact')}\n</artifact>`;
    }
    case 'document': {
      if (options.knowledge === undefined) throw new Error('knowledge is not running');
      const excerpt = await options.knowledge.read(reference.id);
      return `<document id="${excerpt.item.id}" title="${attribute(excerpt.item.title)}" blocks="${excerpt.total}">\n${cut(blocksToText(excerpt.blocks.map((entry) => entry.block)), `read the rest with read_document (id ${excerpt.item.id}, from a block index)`)}\n</document>`;
    }
    case 'knowledge': {
      if (options.knowledge === undefined) throw new Error('knowledge is not running');
      const query = options.text.trim() === '' ? reference.label : options.text.slice(0, 1000);
      const result = await options.knowledge.retriever.search({
        query,
        project_id: options.projectId,
        top_k: 8,
      });
      const lines = result.hits.map(
        (hit) =>
          `- [${hit.citation.title}${hit.citation.heading_path.length > 0 ? ` › ${hit.citation.heading_path.join(' › ')}` : ''}](${hit.citation.link}) ${markedSnippet(hit.citation)}`,
      );
      return `<knowledge query="${attribute(query)}" hits="${result.hits.length}">\n${lines.length === 0 ? 'Nothing in the project’s knowledge matches; search_knowledge can try other words.' : lines.join('\n')}\nCite a source with its link; read more with read_document.\n</knowledge>`;
    }
  }
}
