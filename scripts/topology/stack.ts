/**
 * What scripts/topology/run.ts runs of the compose stack, named once so test/unit/deploy/topology-compose.test.ts can
 * compare it with docker-compose.yml (the same scripts, plugin, dynamic config, app entry points and NODE_ENV).
 */
export const TOPOLOGY_STACK = {
  /** compose's temporal-schema and temporal-namespace services run these (mounted from ./deploy/temporal). */
  schemaScript: 'deploy/temporal/schema.sh',
  namespaceScript: 'deploy/temporal/namespace.sh',
  /** compose's SQL_PLUGIN and the temporal service's DB. */
  sqlPlugin: 'postgres12',
  /** compose mounts ./deploy/temporal/dynamicconfig and points DYNAMIC_CONFIG_FILE_PATH at this file's name. */
  dynamicConfig: 'deploy/temporal/dynamicconfig/paycore.yaml',
  /** The image's CMD (dist/api/main.js) and compose's worker command (dist/workers/main.js), from source. */
  apiEntry: 'api/main.ts',
  workerEntry: 'workers/main.ts',
  /** compose's x-app-environment NODE_ENV. */
  nodeEnv: 'production',
  /**
   * The setting that lets production deliver webhooks to on-premise receivers (docs/webhooks.md): the run names its
   * receivers there, and compose passes it through from the operator's environment (empty by default).
   */
  webhookAllowList: 'WEBHOOK_PRIVATE_DESTINATIONS',
} as const;
