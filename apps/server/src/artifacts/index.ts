export { ArtifactService, MAX_ARTIFACT_BYTES } from './artifact-service.ts';
export type {
  ArtifactChangeNotice,
  ArtifactExcerpt,
  CreateArtifactRequest,
  RunScope,
  UpdateArtifactRequest,
  UpdateResult,
  WritableArtifactKind,
} from './artifact-service.ts';
export { artifactTools, READ_LIMIT_BYTES, toolError } from './artifact-tools.ts';
export { diffTexts } from './artifact-diff.ts';
export { applyEdits } from './artifact-edits.ts';
export { DEFAULT_TOOL_RESULT_BUDGET_BYTES, overflowNotice, overflowPlugin } from './overflow-plugin.ts';
export { artifactReferenceBlocks, resolveArtifactReferences } from './artifact-references.ts';
