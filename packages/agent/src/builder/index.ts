export { AgentBuilder, defaultHome } from './agent-builder.ts';
export type { AgentBuilderOptions } from './agent-builder.ts';
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
