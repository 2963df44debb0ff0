import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// The built declarations (dist/, from `npm run build`) as a TypeScript consumer without
// @types/node sees them; scripts/check-package.sh does the same with the packed tarball.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dir = mkdtempSync(join(tmpdir(), 'graphdb-consumer-'));
mkdirSync(join(dir, 'node_modules'));
symlinkSync(ROOT, join(dir, 'node_modules', 'graphdb'));
writeFileSync(join(dir, 'package.json'), '{"name":"consumer","private":true,"type":"module"}\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** tsc checks every declaration the package ships (skipLibCheck off): 15–30 s on 2 idle cores, over a minute at load 10. */
const TSC_LIMIT_MS = 240_000;

function typeCheck(source: string): { status: number | null; output: string } {
  writeFileSync(join(dir, 'use.ts'), source);
  const options = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['use.ts'] }));
  const r = spawnSync(process.execPath, [TSC, '-p', dir], { encoding: 'utf8', timeout: TSC_LIMIT_MS });
  return { status: r.status, output: r.stdout + r.stderr };
}

describe('the package declarations', () => {
  it('type-check in a consumer without @types/node, the library and graphdb/mcp alike', () => {
    const r = typeCheck(`
      import { Database, GraphDbError, Node, type QueryResult } from 'graphdb';
      import { createMcpServer } from 'graphdb/mcp';
      const db: Database = await Database.openInMemory();
      const result: QueryResult = await db.query('RETURN 1 AS one');
      export const seen: [unknown, boolean, boolean, string] = [result.records[0], GraphDbError.prototype instanceof Error, result.records[0][0] instanceof Node, typeof createMcpServer];
    `);
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  }, TSC_LIMIT_MS + 10_000);

  it('the same consumer has no Node types to lean on (so the check above can fail)', () => {
    const r = typeCheck(`export const b = Buffer.from('x');\n`);
    expect(r.output).toMatch(/Cannot find name 'Buffer'/);
  }, TSC_LIMIT_MS + 10_000);
});
