export { decodeAnthropicStream, decodeOpenAIStream, decodeRecordedStream } from './decode-recorded-stream.ts';
