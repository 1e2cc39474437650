export * from './common.ts';
export * from './components.ts';
export * from './conversations.ts';
export * from './projects.ts';
export * from './providers.ts';
export * from './system.ts';
export * from './uploads.ts';
