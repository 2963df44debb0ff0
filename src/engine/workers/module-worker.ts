/**
 * Starting a worker thread on one of the engine's own modules, whether this process runs the
 * compiled JavaScript in dist/ or the TypeScript sources (tests, `tsx` runs): the eval'd
 * bootstrap and where its module is. The query workers (worker-pool.ts) and the CSV import's
 * parse workers (../csv-parallel.ts) both start this way.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** What a bootstrap is given as `workerData`: the module to import, and tsx's loader API when that module is TypeScript. */
export interface ModuleWorkerEntry {
  entry: string;
  tsx?: string;
}

/**
 * The eval'd bootstrap of a worker whose `workerData` is a `ModuleWorkerEntry`: it uses only
 * `import()`, valid whether the eval runs as CommonJS or, under a parent started with
 * --input-type=module, as a module, so the worker inherits the parent's flags as they are (an
 * explicit execArgv is refused outright when it holds a V8 flag such as --expose-gc). `what`
 * names the worker in the message of a failed start.
 */
export function moduleWorkerBootstrap(what: string): string {
  return `
(async () => {
  const { workerData } = await import('node:worker_threads');
  if (workerData.tsx) (await import(workerData.tsx)).register();
  await import(workerData.entry);
})().catch((err) => { console.error('graphdb: ${what} failed to start:', err); process.exit(70); });`;
}

/**
 * The module `name` (no extension) beside the module at `callerUrl`: its .js when the caller is
 * compiled, else its .ts with tsx's ESM loader API to register first.
 */
export function moduleWorkerEntry(callerUrl: string, name: string): ModuleWorkerEntry {
  const here = fileURLToPath(callerUrl);
  if (!here.endsWith('.ts')) return { entry: pathToFileURL(join(dirname(here), `${name}.js`)).href };
  const require = createRequire(callerUrl);
  const pkgFile = require.resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };
  const api = pkg.exports['./esm/api']?.import?.default ?? './dist/esm/api/index.mjs';
  return { entry: pathToFileURL(join(dirname(here), `${name}.ts`)).href, tsx: pathToFileURL(join(dirname(pkgFile), api)).href };
}
