/**
 * What `runServers` loads only when servers start: the doors and the query workers.
 * Kept out of serve.ts's static imports so that commands which merely check server options
 * (`graphdb --help`, `graphdb query`, graphdb-mcp) do not load fastify, the PostgreSQL wire
 * code or the worker pool.
 */

export async function loadServerDoors() {
  const [http, pg, tcp, bolt, router, pool, budget] = await Promise.all([
    import('../server/http/server.js'),
    import('../server/pg/index.js'),
    import('../server/tcp/server.js'),
    import('../server/bolt/server.js'),
    import('../engine/workers/query-router.js'),
    import('../engine/workers/worker-pool.js'),
    import('../engine/workers/worker-budget.js'),
  ]);
  return {
    startHttpServer: http.startHttpServer,
    startPgServer: pg.startPgServer,
    startTcpServer: tcp.startTcpServer,
    startBoltServer: bolt.startBoltServer,
    QueryRouter: router.QueryRouter,
    QueryWorkerPool: pool.QueryWorkerPool,
    defaultWorkers: budget.defaultWorkers,
  };
}
