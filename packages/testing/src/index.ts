export * from './scripted-provider/index.ts';
export * from './temp-home/index.ts';
export * from './fake-servers/index.ts';
export * from './agent-scripts/index.ts';
