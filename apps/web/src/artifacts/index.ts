export { ArtifactsTab } from './artifact-list.tsx';
export { ArtifactViewer } from './artifact-viewer.tsx';
export { CsvTable } from './csv-table.tsx';
export { DiffView } from './diff-view.tsx';
export { JsonTree } from './json-tree.tsx';
