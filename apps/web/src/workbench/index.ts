export { ArtifactsTab, viewerKind } from './artifacts-tab.tsx';
export { Workbench } from './workbench.tsx';
