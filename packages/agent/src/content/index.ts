export type {
  ContentBlock,
  FileBlock,
  ImageBlock,
  ImageMediaType,
  TextBlock,
  UserInput,
  UserInputBlock,
} from './content.ts';
