export * from './errors/index.ts';
export * from './content/index.ts';
export * from './provider/index.ts';
