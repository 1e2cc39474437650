export { ReplayButton, ReplayDialog } from './replay-dialog.tsx';
export { callAt, projectThrough, timelineOf, type TimelineEntry } from './replay-timeline.ts';
