/**
 * How a test starts a child process that runs the engine's modules: the build's compiled
 * JavaScript in dist/ when that build is newer than every source file (so it is the same code),
 * otherwise the TypeScript sources through tsx. A child that loads the sources through tsx
 * spends about 1.5 s of CPU more before its first line (1.85 s against 0.4 s measured for
 * `Database.open`), and `npm test` builds before it tests, so its children take the compiled form.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compiledWorkerEntry } from '../src/engine/workers/worker-pool.js';

/** The repository's root directory, with a trailing slash. */
export const ROOT = fileURLToPath(new URL('../', import.meta.url));

let engineBuilt: boolean | undefined;

/**
 * The module a child should load for `source` (a TypeScript file relative to the repository
 * root, such as 'src/engine/database.ts' or 'test/crash/group-commit-child.ts'), as an absolute
 * path: its compiled twin when the build is current, else the source itself.
 */
export function childModule(source: string): string {
  // The engine's sources (the same check the query workers make), then this file's own.
  engineBuilt ??= compiledWorkerEntry(ROOT) !== undefined;
  const compiled = join(ROOT, 'dist', source.replace(/\.ts$/, '.js'));
  const builtAt = engineBuilt && existsSync(compiled) ? statSync(join(ROOT, 'dist', 'tsconfig.tsbuildinfo')).mtimeMs : -1;
  return builtAt >= statSync(join(ROOT, source)).mtimeMs ? compiled : join(ROOT, source);
}

/** The node options a child needs to load `module` (one that childModule gave): tsx for TypeScript. */
export function childLoader(module: string): string[] {
  return module.endsWith('.ts') ? ['--import', 'tsx'] : [];
}
