export { UiSurfaceRegistry } from './surface-registry.ts';
export type { UiCommandHandler, UiSurfaceProvider } from './surface-registry.ts';
export { UiActionRunner } from './ui-action-runner.ts';
export { postCard, showCardTool } from './show-card-tool.ts';
export type { CardToPost } from './show-card-tool.ts';
