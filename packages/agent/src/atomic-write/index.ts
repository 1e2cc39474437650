export { writeFileAtomic } from './atomic-write.ts';
