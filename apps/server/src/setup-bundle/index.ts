export { exportSetupBundle } from './setup-bundle-export.ts';
export { importSetupBundle, parseSetupBundle, previewSetupBundle } from './setup-bundle-import.ts';
export type { SetupBundleSources } from './setup-bundle-sources.ts';
