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
export { DOCX_MEDIA_TYPE, markdownToDocx } from './markdown-docx.ts';
export { documentTemplateCatalog, TEMPLATE_TOOL_NAME, templateTool } from './template-tool.ts';
export type { TemplateToolOptions, ToolDocumentTemplate } from './template-tool.ts';
