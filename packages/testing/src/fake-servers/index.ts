export { anthropicWire } from './anthropic-wire.ts';
export { startFakeAnthropic, startFakeOpenAI, startFakeServer } from './fake-server.ts';
export type { FakeServer, FakeServerOptions } from './fake-server.ts';
export { fakeTextReply, fakeToolCallReply } from './fake-script.ts';
export type {
  ContextLengthShape,
  FakeReply,
  FakeStep,
  FakeStreamReply,
  RecordedRequest,
  ResolvedFakeReply,
} from './fake-script.ts';
export {
  fakeAskUserReply,
  fakeReplyAfterToolResult,
  fakeUpdatePlanReply,
  fakeUpdateTodosReply,
  lastToolResult,
} from './workbench-script.ts';
export { openAIWire } from './openai-wire.ts';
export { echoReply, lastUserText } from './wire-format.ts';
export type { WireFormat, WireFrame, WireResponse } from './wire-format.ts';
