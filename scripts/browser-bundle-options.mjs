// The esbuild options that make graphdb's engine a browser bundle (build-browser.mjs, and the
// TCK sample of test/browser): Node's built-ins are replaced by browser modules
// (src/browser/platform), as are src/version.ts (the version is written in), src/lazy-module.ts
// (modules loaded up front, since a page has no synchronous require()) and, through
// createRequire, the native hnswlib-node (an exact scan, src/browser/exact-knn.ts); Node globals
// (Buffer, process, setImmediate, SharedArrayBuffer where missing) are injected from
// src/browser/platform/globals.ts.
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/** Node built-in → its browser module. */
const builtins = {
  fs: 'fs.ts',
  'fs/promises': 'fs-promises.ts',
  path: 'path.ts',
  url: 'url.ts',
  os: 'os.ts',
  module: 'module.ts',
  worker_threads: 'worker-threads.ts',
  perf_hooks: 'perf-hooks.ts',
  vm: 'small.ts',
  v8: 'small.ts',
  child_process: 'small.ts',
  readline: 'small.ts',
  zlib: 'small.ts',
  crypto: 'small.ts',
};

/** Options for esbuild's `build`, for the repository at `root`. */
export async function browserBundleOptions(root) {
  const platform = join(root, 'src/browser/platform');
  const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version;
  const browserModules = {
    name: 'graphdb-browser-modules',
    setup(b) {
      b.onResolve({ filter: /^node:/ }, (args) => {
        const name = args.path.slice('node:'.length);
        const file = builtins[name];
        if (file === undefined) return { errors: [{ text: `node:${name} has no browser module (add one to src/browser/platform and to scripts/browser-bundle-options.mjs)` }] };
        return { path: join(platform, file) };
      });
      // A page has no synchronous require(): lazy modules load through import() up front instead.
      b.onResolve({ filter: /\/lazy-module\.js$/ }, (args) => {
        if (resolve(args.resolveDir, args.path) === join(root, 'src/lazy-module.js')) return { path: join(platform, 'lazy-module.ts') };
        return undefined;
      });
      b.onResolve({ filter: /\/version\.js$/ }, (args) => {
        if (resolve(args.resolveDir, args.path) === join(root, 'src/version.js')) return { path: join(platform, 'version.ts') };
        return undefined;
      });
    },
  };
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // Error classes name themselves after their class (GraphDbError: new.target.name): keep those names.
    keepNames: true,
    sourcemap: false,
    inject: [join(platform, 'globals.ts')],
    define: { __GRAPHDB_VERSION__: JSON.stringify(version) },
    plugins: [browserModules],
  };
}
