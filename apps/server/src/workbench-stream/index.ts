export { workbenchEventStream } from './workbench-event-stream.ts';
export { WorkbenchStream, WORKBENCH_STREAM_VERSION } from './workbench-stream.ts';
