export { ServicesProvider, createServices, useServices } from './services.tsx';
export type { AppServices } from './services.tsx';
