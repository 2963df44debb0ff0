#!/usr/bin/env node
// Builds what the npm package ships (tsconfig.dist.json: the library, CLI, MCP server and
// grammar output, without tests, benchmarks, source maps or build caches) into dist/.
// `prepack` runs it with --clean, so a tarball is always built from nothing; `prepare`
// (a git install, or `npm install` in a clone) runs it without, and it does nothing when
// dist/ already holds a build, so a developer's `npm install` does not rebuild each time.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const clean = process.argv.includes('--clean');
if (!clean && existsSync(resolve(root, 'dist', 'src', 'index.js'))) process.exit(0);
if (clean) rmSync(resolve(root, 'dist'), { recursive: true, force: true });

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
run([resolve(root, 'scripts', 'build-grammar.mjs'), ...(clean ? ['--force'] : [])]);
// tsc from the package's own devDependencies: a git install has them while `prepare` runs.
run([createRequire(import.meta.url).resolve('typescript/bin/tsc'), '-p', 'tsconfig.dist.json']);
