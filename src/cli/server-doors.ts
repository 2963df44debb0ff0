/**
 * What `runServers` loads only when servers start: the query workers and each door that the
 * plan names. Kept out of serve.ts's static imports so that commands which merely check server
 * options (`graphdb --help`, `graphdb query`, graphdb-mcp) do not load fastify, the PostgreSQL
 * wire code or the worker pool, and a server loads only the doors it opens (`--http` alone
 * loads neither the PostgreSQL nor the Bolt code).
 */

export async function loadWorkerParts() {
  const [router, pool, budget] = await Promise.all([import('../engine/workers/query-router.js'), import('../engine/workers/worker-pool.js'), import('../engine/workers/worker-budget.js')]);
  return { QueryRouter: router.QueryRouter, QueryWorkerPool: pool.QueryWorkerPool, defaultWorkers: budget.defaultWorkers };
}

export const loadHttpDoor = async () => (await import('../server/http/server.js')).startHttpServer;
export const loadTcpDoor = async () => (await import('../server/tcp/server.js')).startTcpServer;
export const loadBoltDoor = async () => (await import('../server/bolt/server.js')).startBoltServer;
export const loadPgDoor = async () => (await import('../server/pg/index.js')).startPgServer;
