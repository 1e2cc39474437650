export type { Memory, MemoryInput, MemoryStorage } from './memory-storage.ts';
export {
  GLOBAL_NAMESPACE,
  MEMORY_EXTRACTION_PROMPT,
  MemoryManager,
  parseMemories,
} from './memory-manager.ts';
