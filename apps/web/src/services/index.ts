export { ServicesProvider, createServices, useOptionalServices, useServices } from './services.tsx';
export type { AppServices } from './services.tsx';
