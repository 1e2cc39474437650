export * from './scripted-provider/index.ts';
export * from './temp-home/index.ts';
