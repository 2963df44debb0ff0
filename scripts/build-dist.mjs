#!/usr/bin/env node
// Builds what the npm package ships (tsconfig.dist.json: the library, CLI, MCP server and
// grammar output, the web console's bundle and the browser build, without tests, benchmarks, source maps or build caches) into dist/.
// `prepack` runs it with --clean: the tarball must come from a build of nothing but the
// sources. `prepare` (a git install, or `npm install` in a clone) runs it without, and it
// does nothing when dist/ already holds a build. A clean build leaves a stamp naming the
// sources it was built from; a --clean run skips the rebuild while the stamp still holds and
// dist/ holds nothing else, so a git install (prepare, then pack) builds only once.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.package-build');
const SHIPPED_OUTPUT = ['browser', 'codegen', 'console', 'functions', 'procedures', 'runtime', 'src', '.package-build'];
const clean = process.argv.includes('--clean');

/** A digest of the paths, sizes and times of every source the package build reads. */
function sourcesDigest() {
  const hash = createHash('sha256');
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const file = join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else {
        const s = statSync(file);
        hash.update(`${file}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  for (const dir of ['src', 'codegen', 'functions', 'procedures', 'runtime', 'grammar', 'console']) walk(join(root, dir));
  for (const file of ['tsconfig.json', 'tsconfig.dist.json', 'package.json']) hash.update(readFileSync(join(root, file)));
  return hash.digest('hex');
}

function canResolve(request) {
  try {
    createRequire(import.meta.url).resolve(request);
    return true;
  } catch {
    return false;
  }
}

function cleanBuildHolds() {
  if (!existsSync(stampFile) || readdirSync(dist).some((name) => !SHIPPED_OUTPUT.includes(name))) return false;
  return readFileSync(stampFile, 'utf8') === sourcesDigest();
}

if (!clean && existsSync(join(dist, 'src', 'index.js'))) process.exit(0);
if (clean && cleanBuildHolds()) process.exit(0);
// `npm install --omit=dev` in a clone runs `prepare` without the build tools: say so and leave
// dist/ alone rather than fail the install (a production install of a checkout whose dist/ is
// copied in afterwards, as ../shared/tools/bundle-for-remote.sh does).
if (!clean && !canResolve('typescript/bin/tsc')) {
  console.error('graphdb: the build tools (devDependencies) are not installed, so dist/ was not built; `npm install` and `npm run build` build it.');
  process.exit(0);
}
rmSync(dist, { recursive: true, force: true });

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
run([join(root, 'scripts', 'build-grammar.mjs'), '--force']);
// tsc from the package's own devDependencies: a git install has them while `prepare` runs.
// The JavaScript ships without comments (a quarter of the compressed package, read by nobody
// at run time); the declarations are emitted again with them, since they document the API.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
run([tsc, '-p', 'tsconfig.dist.json', '--removeComments']);
run([tsc, '-p', 'tsconfig.dist.json', '--emitDeclarationOnly']);
// Only the declarations the package's entry points reach ship (the others are never read).
run([join(root, 'scripts', 'prune-declarations.mjs')]);
// The parser and what only it uses in one file, loaded through a V8 code cache (src/code-cache.ts).
run([join(root, 'scripts', 'build-parser-bundle.mjs')]);
// The web console's bundle (esbuild, also a devDependency), served by `graphdb --http` at /.
run([join(root, 'scripts', 'build-console.mjs')]);
// The browser build (graphdb/browser, docs/BROWSER.md): esbuild bundles and their type declarations.
run([join(root, 'scripts', 'build-browser.mjs')]);
writeFileSync(stampFile, sourcesDigest());
