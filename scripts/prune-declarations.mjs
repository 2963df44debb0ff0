#!/usr/bin/env node
// Keeps in dist/ only the type declarations a consumer of the package can reach. The package's
// `exports` open only the library's and graphdb/mcp's entry points (graphdb/browser carries its
// own declarations), so a .d.ts that no chain of imports from those entries names is never read
// by anyone; tsc emits one per module all the same (three quarters of them, about 0.9 MB).
// The walk follows what TypeScript itself calls a file's imports (`ts.preProcessFile`: import and
// export declarations, `import()` types, triple-slash references), so a declaration that an
// entry point needs is never dropped; scripts/check-declarations.mjs then type-checks the
// packed declarations with skipLibCheck off.
//
//   node scripts/prune-declarations.mjs [dist-dir]
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ts = createRequire(import.meta.url)('typescript');
const DECLARATION_ROOTS = ['src', 'codegen', 'runtime', 'procedures', 'functions'];
const ENTRY_POINTS = ['src/index.d.ts', 'src/mcp/index.d.ts'];

/** The declaration file a relative specifier in `from` names, or undefined for a package name. */
function declarationFor(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const target = resolve(dirname(from), specifier);
  for (const candidate of [target.replace(/\.(m|c)?js$/, '.d.$1ts'), `${target}.d.ts`, join(target, 'index.d.ts'), target]) {
    if (candidate.endsWith('.d.ts') && existsSync(candidate)) return candidate;
  }
  throw new Error(`prune-declarations: ${from} imports ${specifier}, which has no declaration file`);
}

/** Every declaration reachable from the package's entry points. */
export function reachableDeclarations(dist) {
  const reached = new Set();
  const pending = ENTRY_POINTS.map((entry) => join(dist, entry));
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const ref of [...info.importedFiles, ...info.referencedFiles]) {
      const next = declarationFor(file, ref.fileName);
      if (next !== undefined) pending.push(next);
    }
  }
  return reached;
}

/** Deletes the unreachable declarations under dist/; returns how many files and bytes went. */
export function pruneDeclarations(dist) {
  const keep = reachableDeclarations(dist);
  let files = 0;
  let bytes = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.d.ts') && !keep.has(path)) {
        bytes += readFileSync(path).length;
        files += 1;
        rmSync(path);
      }
    }
  };
  for (const root of DECLARATION_ROOTS) if (existsSync(join(dist, root))) walk(join(dist, root));
  return { kept: keep.size, files, bytes };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'));
  const { kept, files, bytes } = pruneDeclarations(dist);
  console.log(`prune-declarations: kept ${kept}, removed ${files} declarations (${bytes} bytes) no entry point reaches`);
}
