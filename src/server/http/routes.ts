/**
 * The HTTP door's route table, in one place: what the server registers, what the start-up
 * banner lists, and what the not-found handler uses to tell "no such path" (404) from "no
 * such method on this path" (405).
 */

export interface RouteInfo {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** How the banner shows the route, when it differs from the path. */
  shown?: string;
  what: string;
}

export const ROUTES: readonly RouteInfo[] = [
  { method: 'POST', path: '/query', what: 'run the query sent as the raw request body (plain text), or {"query", "params"} as application/json (typed cells)' },
  { method: 'GET', path: '/query', shown: '/query?q=<query>', what: 'run a URL-encoded query (+ for spaces)' },
  { method: 'GET', path: '/status', what: 'engine name, version, node/relationship/skill counts, compute (ONNX provider, cores, memory, GPU)' },
  { method: 'GET', path: '/health', what: 'liveness (also /livez)' },
  { method: 'GET', path: '/livez', what: 'liveness' },
  { method: 'GET', path: '/ready', what: 'readiness with counts (also /readyz)' },
  { method: 'GET', path: '/readyz', what: 'readiness with counts' },
  { method: 'POST', path: '/mcp', what: 'MCP over streamable HTTP (the tools of graphdb-mcp); GET and DELETE with the session id' },
  { method: 'GET', path: '/mcp', what: 'an MCP session\'s event stream' },
  { method: 'DELETE', path: '/mcp', what: 'ends an MCP session' },
  { method: 'POST', path: '/db/neo4j/tx/commit', what: "Neo4j's transactional HTTP API (also /db/neo4j/tx, /tx/{id}, /tx/{id}/commit, DELETE /tx/{id}; docs/TRANSACTIONS.md)" },
  { method: 'POST', path: '/db/neo4j/query/v2', what: "Neo4j's Query API (one statement, typed values)" },
  { method: 'POST', path: '/query/pages', what: 'run {"query", "params", "pageSize"} and answer its first page with a cursor for the rest (the console\'s "load more")' },
  { method: 'GET', path: '/query/pages/:cursor', shown: '/query/pages/<cursor>', what: 'the next page of a paged answer (?rows=N); DELETE closes it' },
  { method: 'POST', path: '/query/source', what: 'the JavaScript a query compiles to, for {"query"} (the console\'s plan view)' },
  { method: 'GET', path: '/', what: 'the web console (docs/CONSOLE.md; its files need no key, its queries do)' },
];

/** The routes as the 404 text lists them: `POST /query, GET /query?q=, ...`. */
export function routeList(): string {
  return ROUTES.filter((r) => r.path !== '/livez' && r.path !== '/readyz' && !(r.path === '/mcp' && r.method !== 'POST'))
    .map((r) => (r.path === '/mcp' ? 'POST|GET|DELETE /mcp' : `${r.method} ${r.shown?.replace(/<query>$/, '') ?? r.path}`))
    .join(', ');
}

/** Methods served on `path` (HEAD goes with GET; OPTIONS is everywhere), or [] for an unknown path. */
export function methodsFor(path: string): string[] {
  const methods = ROUTES.filter((r) => r.path === path).map((r) => r.method);
  if (methods.length === 0) return [];
  const out = new Set<string>(methods);
  if (out.has('GET')) out.add('HEAD');
  out.add('OPTIONS');
  return [...out];
}

/** The lines the server prints to stderr when it starts listening. */
export function bannerLines(address: string, keyRequired: boolean): string[] {
  const lines = [`graphdb HTTP server listening on ${address}`, `web console: ${address}/`, 'routes:'];
  for (const r of ROUTES) {
    if (r.path === '/livez' || r.path === '/readyz' || (r.path === '/mcp' && r.method !== 'POST')) continue;
    lines.push(`  ${r.method.padEnd(7)} ${(r.shown ?? r.path).padEnd(18)} ${r.what}`);
  }
  lines.push(`  ${'OPTIONS'.padEnd(7)} ${'*'.padEnd(18)} CORS preflight (204)`);
  lines.push(
    keyRequired
      ? 'API key: required on every route but /health, /livez, /ready, /readyz (Authorization: Bearer <key>)'
      : 'API key: not required (start with --api-key <key> to require one)',
  );
  return lines;
}
