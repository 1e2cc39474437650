export { SetupBundleSection } from './setup-bundle-section.tsx';
