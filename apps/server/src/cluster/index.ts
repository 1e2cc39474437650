export { Cluster, CONTROL_CHANNEL } from './cluster.ts';
export type { ClusterOptions, ControlMessage } from './cluster.ts';
export { LOCK_FILE, lockDataDirectory } from './data-directory-lock.ts';
