export { useDocumentViewer } from './document-viewer-store.ts';
export type { DocumentViewer } from './document-viewer-store.ts';
export { DocumentTab } from './document-tab.tsx';
export { KnowledgeSection } from './knowledge-section.tsx';
export { ReferencePicker, ReferenceTray, mentionQuery } from './reference-picker.tsx';
export {
  useKnowledge,
  useKnowledgeActions,
  useKnowledgeDocument,
  useReferenceCandidates,
} from './knowledge-queries.ts';
