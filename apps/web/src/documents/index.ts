export { DocumentStatus, syncDocuments, uploadDocumentKey, useUploadDocument } from './document-status.tsx';
