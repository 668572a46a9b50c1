export type {
  ClusterMessage,
  ClusterMessageListener,
  ClusterStore,
  CounterValue,
  RecordGuard,
  RecordWriteOptions,
} from './cluster-store.js';
export { createMemoryClusterStore, type MemoryClusterStoreSettings } from './memory-cluster-store.js';
export { type ReplicaHeartbeat, type ReplicaHeartbeatSettings, startReplicaHeartbeat } from './replica-heartbeat.js';
export { type ClusterOAuthStore, createClusterOAuthStore } from './cluster-oauth-store.js';
export { ClusterStoreError } from './cluster-store-error.js';
export { createRedisClusterStore, type RedisClusterStoreSettings } from './redis-cluster-store.js';
