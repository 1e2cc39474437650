export { Cluster, CONTROL_CHANNEL, liveInstancesOf, sendControlMessage } from './cluster.ts';
export type { ClusterOptions, ControlMessage, ControlMessageBody } from './cluster.ts';
export { LOCK_FILE, lockDataDirectory } from './data-directory-lock.ts';
