export {
  contextOverflowReply,
  errorReply,
  ScriptedProvider,
  scriptedModel,
  textReply,
  toolCallReply,
} from './scripted-provider.ts';
export type { ScriptedProviderOptions, ScriptedResponse, ScriptStep } from './scripted-provider.ts';
