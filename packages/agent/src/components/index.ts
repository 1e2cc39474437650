export type {
  ComponentKind,
  ComponentLayer,
  ComponentSource,
  LayerComponents,
  LayeredPlugin,
  LoadDiagnostic,
  LoadedComponents,
} from './component-source.ts';
export type { ComponentInfo } from './compose-components.ts';
export { assemble } from './assembly.ts';
export { effectiveConfig } from './assembly.ts';
export { loadSources } from './assembly.ts';
export type { AssemblyInput } from './assembly.ts';
export type { ComponentSnapshot } from './assembly.ts';
