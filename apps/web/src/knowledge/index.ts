export { useDocumentViewer } from './document-viewer-store.ts';
export type { DocumentViewer } from './document-viewer-store.ts';
export { DocumentTab } from './document-tab.tsx';
export { KnowledgeIndex } from './knowledge-index.tsx';
export { KnowledgeSearch } from './knowledge-search.tsx';
export { KnowledgeSection } from './knowledge-section.tsx';
export { ProjectKnowledgeDialog } from './project-knowledge-dialog.tsx';
export { ReferencePicker, ReferenceTray, mentionQuery } from './reference-picker.tsx';
export {
  useKnowledge,
  useKnowledgeActions,
  useKnowledgeDocument,
  useKnowledgeSearch,
  useReferenceCandidates,
} from './knowledge-queries.ts';
