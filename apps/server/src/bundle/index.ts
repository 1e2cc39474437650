export { BUNDLE_FILE, buildServerBundle } from './build-bundle.ts';
