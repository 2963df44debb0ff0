#!/usr/bin/env node
// The package's declarations as a TypeScript consumer sees them: a project with no @types/node
// (the package must not need Node's types) imports the library and graphdb/mcp and type-checks
// with skipLibCheck off, so every declaration the package ships is checked. A second check
// proves that consumer really lacks Node's types (Buffer is unknown there), so the first cannot
// pass for the wrong reason.
//
//   node scripts/check-declarations.mjs [package-dir]
//
// package-dir defaults to this clone (its built dist/: `npm test` runs this beside the 'alone'
// test files); scripts/check-package.sh passes the package installed from the packed tarball.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const packageDir = resolve(process.argv[2] ?? root);

const USES_THE_PACKAGE = `
import { Database, GraphDbError, Node, type QueryResult } from 'graphdb';
import { createMcpServer } from 'graphdb/mcp';
const db: Database = await Database.openInMemory();
const result: QueryResult = await db.query('RETURN 1 AS one');
export const seen: [unknown, boolean, boolean, string] = [result.records[0], GraphDbError.prototype instanceof Error, result.records[0][0] instanceof Node, typeof createMcpServer];
`;
const USES_NODE_TYPES = `export const b = Buffer.from('x');\n`;

const consumer = mkdtempSync(join(tmpdir(), 'graphdb-consumer-'));
function typeCheck(source) {
  writeFileSync(join(consumer, 'use.ts'), source);
  const r = spawnSync(process.execPath, [tsc, '-p', consumer], { encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}` };
}

let failed = false;
try {
  mkdirSync(join(consumer, 'node_modules'));
  symlinkSync(packageDir, join(consumer, 'node_modules', 'graphdb'));
  writeFileSync(join(consumer, 'package.json'), '{"name":"consumer","private":true,"type":"module"}\n');
  const compilerOptions = { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] };
  writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['use.ts'] }));

  const uses = typeCheck(USES_THE_PACKAGE);
  if (uses.status !== 0 || uses.output !== '') {
    failed = true;
    process.stderr.write(`check-declarations: a consumer without @types/node does not type-check against ${packageDir} (tsc exit ${uses.status}):\n${uses.output}\n`);
  }
  const control = typeCheck(USES_NODE_TYPES);
  if (!/Cannot find name 'Buffer'/.test(control.output)) {
    failed = true;
    process.stderr.write(`check-declarations: the consumer has Node's types after all (Buffer type-checked), so the check above proves nothing:\n${control.output}\n`);
  }
} finally {
  rmSync(consumer, { recursive: true, force: true });
}
if (!failed) process.stdout.write(`check-declarations: ${packageDir}'s declarations type-check in a consumer without @types/node\n`);
process.exitCode = failed ? 1 : 0;
