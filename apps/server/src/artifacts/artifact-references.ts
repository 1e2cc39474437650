import type { UserInputBlock } from '@youyou/agent';
import { parseArtifactReferences, type Artifact } from '@youyou/contracts';
import { ApiError } from '../errors/index.ts';
import type { ArtifactService } from './artifact-service.ts';

/** How much of a referenced artifact goes into the message; the rest is a read_artifact away. */
const INLINE_LIMIT = 64 * 1024;

function escapeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');
}

/**
 * What `@artifact:<id or title>` in a message refers to: the written artifacts it names, and
 * the uploads (which go to the agent as attachments). A reference that resolves to nothing is
 * NOT_FOUND, naming it, before the run starts.
 *
 * @example
 * const { artifacts, uploads } = await resolveArtifactReferences(service, conversationId, 'see @artifact:plan.md');
 */
export async function resolveArtifactReferences(
  service: ArtifactService,
  conversationId: string,
  text: string,
  findUpload: (reference: string) => Promise<{ id: string } | undefined>,
): Promise<{ artifacts: Artifact[]; uploads: string[] }> {
  const artifacts: Artifact[] = [];
  const uploads: string[] = [];
  for (const reference of parseArtifactReferences(text)) {
    const artifact = await service.resolve(conversationId, reference).catch(() => undefined);
    if (artifact !== undefined) {
      if (!artifacts.some((known) => known.id === artifact.id)) artifacts.push(artifact);
      continue;
    }
    const upload = await findUpload(reference);
    if (upload !== undefined) {
      if (!uploads.includes(upload.id)) uploads.push(upload.id);
      continue;
    }
    throw new ApiError(
      'NOT_FOUND',
      `@artifact:${reference} names no artifact or upload of this conversation.`,
      { details: { resource: 'artifact', id: reference } },
    );
  }
  return { artifacts, uploads };
}

/**
 * The text blocks that put referenced artifacts into the agent's input (spec §4.10 "@引用显式挂载"):
 * each one's newest version, cut at 64 KB with a pointer to read_artifact.
 *
 * @example
 * blocks.push(...(await artifactReferenceBlocks(service, conversationId, input.text)));
 */
export async function artifactReferenceBlocks(
  service: ArtifactService,
  conversationId: string,
  text: string,
): Promise<UserInputBlock[]> {
  const blocks: UserInputBlock[] = [];
  for (const reference of parseArtifactReferences(text)) {
    const artifact = await service.resolve(conversationId, reference).catch(() => undefined);
    if (artifact === undefined) continue;
    const excerpt = await service.read(conversationId, artifact.id);
    let body = excerpt.text;
    if (Buffer.byteLength(body) > INLINE_LIMIT) {
      body = `${Buffer.from(body)
        .subarray(0, INLINE_LIMIT)
        .toString('utf8')
        .replace(
          /\uFFFD+$/,
          '',
        )}\n[… cut at ${INLINE_LIMIT} bytes of ${artifact.size}: read the rest with read_artifact.]`;
    }
    blocks.push({
      type: 'text',
      text: `<artifact id="${artifact.id}" title="${escapeAttribute(artifact.title)}" kind="${artifact.kind}" version="${excerpt.version}">\n${body}\n</artifact>`,
    });
  }
  return blocks;
}
