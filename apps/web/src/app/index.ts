export { App } from './app.tsx';
export { ServicesProvider, createServices, useServices } from './app-services.tsx';
export type { AppServices } from './app-services.tsx';
