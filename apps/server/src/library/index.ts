export { BUILTIN_COMMANDS, BUILTIN_COMMAND_NAMES, CommandRegistry } from './command-registry.ts';
export { LibraryService } from './library-service.ts';
