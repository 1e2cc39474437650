export {
  assembleRequest,
  defaultAttachmentOf,
  headAndTail,
  type AssemblyInput,
  type AssemblyResult,
  type AttachmentInfo,
  type ContextInjections,
  type SlotItem,
} from './context-assembler.ts';
export {
  ContextService,
  type ContextServiceOptions,
  type KnowledgeSlotSource,
  type MemorySlotSource,
  type RunAssembly,
} from './context-service.ts';
export { knowledgeSlotOf, passageOf } from './knowledge-slot.ts';
export { assembledProvider, modelLookup } from './assembled-provider.ts';
export { placeModelCalls } from './run-replay.ts';
