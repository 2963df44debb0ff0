import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The dist/ modules a fresh process has loaded after running `script` as an ES module (a
 * loader hook started with --import reports each URL it loads).
 */
const LOAD_HOOK = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module';
   register('data:text/javascript,' + encodeURIComponent('export async function load(url, context, next) { const r = await next(url, context); process.stderr.write("LOADED " + url + "\\\\n"); return r; }'));`,
)}`;

/** The URLs a process reported loading (LOAD_HOOK's lines) in what it wrote to stderr. */
const loadedIn = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('LOADED '))
    .map((line) => line.slice('LOADED '.length));

function loadedModules(script: string): string[] {
  const r = spawnSync(process.execPath, ['--import', LOAD_HOOK, '--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
  expect(r.status, r.stderr).toBe(0);
  return loadedIn(r.stderr);
}

describe('start-up loads only what is used', () => {
  it("import('graphdb') loads no server, S3, MCP SDK, ONNX embedder, sync, graph_rag pipeline, algorithm, APOC procedure, grammar module, Temporal polyfill, data-directory persistence or APOC scalar function", () => {
    const urls = loadedModules("await import('graphdb')");
    expect(urls.some((u) => u.endsWith('/dist/src/index.js'))).toBe(true);
    const heavy = [
      /\/dist\/src\/server\//,
      /\/dist\/src\/mcp\//,
      /\/dist\/src\/sync\//,
      /\/dist\/src\/rag\/(?!procedures\.js)/,
      /\/dist\/src\/embed\/onnx-embedder\.js/,
      /\/dist\/procedures\/algo\/(?!compute\.js|onnx-model\.js)/,
      /\/dist\/procedures\/apoc\//,
      /\/dist\/src\/frontend\/(generated\/|parser\.js|astBuilder\.js)/,
      /\/dist\/src\/store\/persist\/(durable-store|graph-image|record-store|graph-blocks|wal-writer|snapshot-reader)\.js/,
      /\/dist\/functions\/apoc\/(scalar|coll|map|any|text|convert|date)\.js/,
      /\/node_modules\/(antlr4ng|@aws-sdk|@modelcontextprotocol|@huggingface|onnxruntime-node|fastify|ws|temporal-polyfill)\//,
    ];
    const offending = urls.filter((u) => heavy.some((re) => re.test(u)));
    expect(offending).toEqual([]);
  });

  it('graphdb query "RETURN 1" loads no sync, data-directory persistence, Temporal polyfill, server (nor the CLI\'s serving code), MCP, vector or full-text index module, nor the lazy procedures\' signatures', () => {
    const urls = loadedModules("const { main } = await import('./dist/src/cli/main.js'); process.exitCode = await main([process.execPath, 'graphdb', 'query', 'RETURN 1']);");
    expect(urls.some((u) => u.endsWith('/dist/src/cli/query-command.js'))).toBe(true);
    const heavy = [
      /\/dist\/src\/sync\/(?!discovery-defaults\.js)/,
      /\/dist\/src\/store\/persist\/(durable-store|graph-image|record-store|graph-blocks|wal-writer|snapshot-reader)\.js/,
      /\/dist\/src\/(server\/(?!log-text\.js)|mcp\/)/,
      /\/dist\/src\/cli\/(serve|server-doors)\.js/,
      /\/dist\/src\/fulltext\/(?!index-type\.js)/,
      /\/dist\/src\/vector\/(hnsw-index|persistence|procedures|search)\.js/,
      /\/dist\/procedures\/families\.generated\.js/,
      /\/node_modules\/(temporal-polyfill|fastify|@modelcontextprotocol)\//,
    ];
    expect(urls.filter((u) => heavy.some((re) => re.test(u)))).toEqual([]);
  });

  it('the first query loads the grammar, the first algorithm call the algorithms (require.cache of a fresh process)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const cached = () => Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('/dist/')).map((k) => k.replace(/^.*\\/dist\\//, ''));
      const { grammarLoaded } = await import('./dist/src/frontend/parse-entry.js');
      const { Database } = await import('graphdb');
      const db = new Database();
      const before = { grammar: grammarLoaded(), cached: cached() };
      db.executeSync('RETURN 1');
      const afterQuery = { grammar: grammarLoaded(), algo: cached().includes('procedures/algo/index.js') };
      db.executeSync('CALL algo.degree() YIELD degree RETURN count(*)');
      process.stdout.write(JSON.stringify({ before, afterQuery, afterCall: { algo: cached().includes('procedures/algo/index.js') } }));
      db.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({
      before: { grammar: false, cached: [] },
      afterQuery: { grammar: true, algo: false },
      afterCall: { algo: true },
    });
  });

  it('the Temporal polyfill loads on the first named time zone, not for a query without one (require.cache of a fresh process)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const polyfill = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/temporal-polyfill/'));
      const { Database } = await import('graphdb');
      const db = new Database();
      db.executeSync("RETURN 1, date('2020-01-01'), datetime('2020-01-01T10:00+01:00')");
      const afterPlain = polyfill();
      db.executeSync("RETURN datetime({year: 2020, month: 6, day: 1, timezone: 'Europe/Stockholm'})");
      process.stdout.write(JSON.stringify({ afterPlain, afterZone: polyfill() }));
      db.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ afterPlain: false, afterZone: true });
  });

  it('APOC scalar functions register on the first apoc. lookup or full listing, not for a query without one (require.cache of a fresh process)', () => {
    const script = `
      import { createRequire } from 'node:module';
      const apoc = () => Object.keys(createRequire(import.meta.url).cache).some((k) => k.endsWith('/dist/functions/apoc/scalar.js'));
      const { Database } = await import('graphdb');
      const db = new Database();
      db.executeSync("RETURN toUpper('a'), size([1, 2])");
      const afterPlain = apoc();
      const joined = (await db.execute("RETURN APOC.text.join(['a', 'b'], '-') AS j")).records;
      process.stdout.write(JSON.stringify({ afterPlain, afterApoc: apoc(), joined }));
      db.close();`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ afterPlain: false, afterApoc: true, joined: [['a-b']] });
  });

  it('an APOC function and SHOW FUNCTIONS, in processes that have looked up no APOC name before, work through the binary', () => {
    const call = runCli(['query', "RETURN apoc.coll.sum([1, 2]) AS s, apoc.map.fromPairs([['k', 1]]) AS m", '--json']);
    expect(call.status, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).rows).toEqual([{ s: '3.0', m: '{k: 1}' }]);
    const listed = runCli(['query', "SHOW FUNCTIONS YIELD name WHERE name STARTS WITH 'apoc.coll.' RETURN count(*) AS n", '--json']);
    expect(listed.status, listed.stderr).toBe(0);
    expect(Number(JSON.parse(listed.stdout).rows[0].n)).toBeGreaterThan(10);
  });

  it('a named time zone and the real-time clock, which load the Temporal polyfill on first use, work through the binary', () => {
    const r = runCli(['query', "RETURN datetime({year: 2020, month: 6, day: 1, timezone: 'Europe/Stockholm'}) AS d, datetime.realtime() > datetime('2020-01-01T00:00Z') AS later", '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rows).toEqual([{ d: '2020-06-01T00:00+02:00[Europe/Stockholm]', later: 'true' }]);
  });

  it('the graph image loads for a pinned read snapshot, not for an in-memory query (require.cache of a fresh process), and a data directory, whose persistence loads on open, still keeps what is written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'graphdb-lazy-'));
    try {
      const script = `
        import { createRequire } from 'node:module';
        const has = (name) => Object.keys(createRequire(import.meta.url).cache).some((k) => k.endsWith('/dist/src/store/persist/' + name));
        const { Database } = await import('graphdb');
        const mem = new Database();
        mem.executeSync('CREATE (:N {i: 1}) RETURN 1');
        const plain = { image: has('graph-image.js') };
        const r = await mem.beginTransaction({ mode: 'read' });
        const before = (await r.run('MATCH (n:N) RETURN count(n) AS c')).records;
        await mem.execute('CREATE (:N {i: 2})');
        const pinned = { image: has('graph-image.js'), same: JSON.stringify((await r.run('MATCH (n:N) RETURN count(n) AS c')).records) === JSON.stringify(before) };
        await r.commit();
        mem.close();
        const disk = await Database.open({ dataDir: ${JSON.stringify(join(dir, 'db'))}, storage: { log: null } });
        await disk.execute('CREATE (:D)');
        disk.close();
        const again = await Database.open({ dataDir: ${JSON.stringify(join(dir, 'db'))}, storage: { log: null } });
        const kept = (await again.execute('MATCH (d:D) RETURN count(d) AS c')).records;
        again.close();
        process.stdout.write(JSON.stringify({ plain, pinned, kept }));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ plain: { image: false }, pinned: { image: true, same: true }, kept: [[1]] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an algorithm and an APOC procedure, loaded on their first call, run through the binary', () => {
    const algo = runCli(['query', "CREATE (:P)-[:R]->(:P) WITH 1 AS x CALL algo.pageRank() YIELD score RETURN count(score) AS n", '--json']);
    expect(algo.status, algo.stderr).toBe(0);
    expect(JSON.parse(algo.stdout).rows).toEqual([{ n: '2' }]);
    const apoc = runCli(['query', "CALL apoc.meta.stats() YIELD labelCount RETURN labelCount", '--json']);
    expect(apoc.status, apoc.stderr).toBe(0);
    expect(JSON.parse(apoc.stdout).rows).toEqual([{ labelCount: '0' }]);
  });

  it('vector and full-text indexes, whose code loads on first use, work through the binary (a filtered vector search plans through the loaded code)', () => {
    const vector = runCli(['query', "CALL db.index.vector.createNodeIndex('v', 'D', 'e', 2, 'cosine') WITH 1 AS one UNWIND range(1, 3) AS i CREATE (:D {i: i, e: [toFloat(i), 1.0]}) WITH count(*) AS made CALL db.index.vector.queryNodes('v', 2, [3.0, 1.0]) YIELD node, score WHERE node.i > 1 RETURN made, node.i AS i ORDER BY i", '--json']);
    expect(vector.status, vector.stderr).toBe(0);
    expect(JSON.parse(vector.stdout).rows).toEqual([{ made: '3', i: '2' }, { made: '3', i: '3' }]);
    const fulltext = runCli([], "CREATE FULLTEXT INDEX t FOR (n:D) ON EACH [n.s];\nCREATE (:D {s: 'graph databases'}), (:D {s: 'other'});\nCALL db.index.fulltext.queryNodes('t', 'graph') YIELD node RETURN node.s AS s;\n");
    expect(fulltext.status, fulltext.stderr).toBe(0);
    expect(fulltext.stdout).toContain("'graph databases'");
    expect(fulltext.stdout).not.toContain("'other'");
  });

  it('SHOW PROCEDURES lists the lazy families with their signatures through the binary', () => {
    const r = runCli(['query', "SHOW PROCEDURES YIELD name, signature WHERE name IN ['algo.pageRank', 'apoc.path.expand'] RETURN name, signature", '--json']);
    expect(r.status, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).rows as { name: string; signature: string }[];
    expect(rows.map((row) => row.name)).toEqual(['algo.pageRank', 'apoc.path.expand']);
    expect(rows[0].signature).toBe('algo.pageRank(config :: MAP?) :: (node :: NODE?, score :: FLOAT?)');
  });

  it('dbms.procedures() in a process that has called no procedure lists as many as SHOW PROCEDURES', () => {
    const a = runCli(['query', 'CALL dbms.procedures() YIELD name RETURN count(name) AS n', '--json']);
    const b = runCli(['query', 'SHOW PROCEDURES YIELD name RETURN count(name) AS n', '--json']);
    expect(a.status, a.stderr).toBe(0);
    expect(Number(JSON.parse(a.stdout).rows[0].n)).toBeGreaterThan(130);
    expect(JSON.parse(a.stdout).rows).toEqual(JSON.parse(b.stdout).rows);
  });
  it('a server with only --http loads neither the PostgreSQL nor the Bolt door, and the MCP SDK only on the first /mcp request, which it then answers', async () => {
    const child = spawn(process.execPath, ['--import', LOAD_HOOK, join(ROOT, 'bin', 'graphdb.js'), '--http', '0', '--workers', '0'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    try {
      const port = await new Promise<number>((resolve, reject) => {
        child.stderr.on('data', (text: string) => {
          stderr += text;
          const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
          if (m && stderr.includes('graphdb: serving')) resolve(Number(m[1]));
        });
        child.on('exit', (code) => reject(new Error(`the server exited (${code}) before serving: ${stderr}`)));
      });
      const atStart = loadedIn(stderr);
      expect(atStart.some((u) => u.endsWith('/dist/src/server/http/server.js'))).toBe(true);
      expect(atStart.filter((u) => /\/dist\/src\/server\/(pg|bolt)\/|\/dist\/src\/mcp\/(http-sdk|server)\.js|\/node_modules\/(@modelcontextprotocol|zod|ws)\//.test(u))).toEqual([]);
      const res = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(res.status).toBe(200);
      const tools = ((await res.json()) as { result: { tools: { name: string }[] } }).result.tools.map((t) => t.name);
      expect(tools).toContain('read_query');
      expect(loadedIn(stderr).some((u) => u.includes('/node_modules/@modelcontextprotocol/'))).toBe(true);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
