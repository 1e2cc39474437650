export {
  AgentsTab,
  parseTrackerHash,
  TrackerDialog,
  TrackerPanel,
  TrackerWindow,
  trackerWindowUrl,
  useTracker,
} from './agent-tracker.tsx';
export { flattenTree, TrackerStore } from './tracker-store.ts';
export type { TrackerSnapshot } from './tracker-store.ts';
