export { ProjectNav } from './project-nav.tsx';
export { isUnread, useSeen } from './seen-store.ts';
