export { BUNDLE_FILE, buildServerBundle, escapeNonAscii } from './build-bundle.ts';
