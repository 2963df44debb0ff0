// Bundles the browser build (`graphdb/browser`, docs/BROWSER.md) into dist/browser: the page
// client (graphdb.js), the Web Worker that runs the engine (graphdb-worker.js), the in-page
// engine (graphdb-engine.js), and the chunk they share. Node's built-ins are replaced at
// bundle time by browser modules (src/browser/platform), as are src/version.ts (the version is
// written in) and the native hnswlib-node (an exact scan, src/browser/exact-knn.ts); Node
// globals (Buffer, process, setImmediate) are injected from src/browser/platform/globals.ts.
// Prints the sizes, minified and gzipped.
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'dist/browser');
const platform = join(root, 'src/browser/platform');
const version = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).version;

/** Node built-in → its browser module. */
const builtins = {
  fs: 'fs.ts',
  'fs/promises': 'fs-promises.ts',
  path: 'path.ts',
  url: 'url.ts',
  os: 'os.ts',
  module: 'module.ts',
  worker_threads: 'worker-threads.ts',
  vm: 'small.ts',
  v8: 'small.ts',
  child_process: 'small.ts',
  readline: 'small.ts',
  zlib: 'small.ts',
  crypto: 'small.ts',
};

const browserModules = {
  name: 'graphdb-browser-modules',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      const name = args.path.slice('node:'.length);
      const file = builtins[name];
      if (file === undefined) return { errors: [{ text: `node:${name} has no browser module (add one to src/browser/platform and to scripts/build-browser.mjs)` }] };
      return { path: join(platform, file) };
    });
    b.onResolve({ filter: /\/version\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (target === join(root, 'src/version.js')) return { path: join(platform, 'version.ts') };
      return undefined;
    });
  },
};

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    graphdb: 'src/browser/index.ts',
    'graphdb-worker': 'src/browser/worker.ts',
    'graphdb-engine': 'src/browser/engine.ts',
  },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  minify: !process.argv.includes('--no-minify'),
  // Error classes name themselves after their class (GraphDbError: new.target.name): keep those names.
  keepNames: true,
  sourcemap: false,
  legalComments: 'linked',
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  inject: [join(platform, 'globals.ts')],
  define: { __GRAPHDB_VERSION__: JSON.stringify(version), 'import.meta.url': 'import.meta.url' },
  plugins: [browserModules],
  logLevel: 'warning',
});

// Type declarations of the page client: its modules import nothing of the engine, so each is
// declared on its own (isolated declarations, no type-check: `npm run typecheck` does that).
for (const name of ['index', 'types', 'protocol']) {
  const source = await readFile(join(root, 'src/browser', `${name}.ts`), 'utf8');
  const result = ts.transpileDeclaration(source, { fileName: `${name}.ts`, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, strict: true }, reportDiagnostics: true });
  if (result.diagnostics?.length) {
    for (const d of result.diagnostics) console.error(`src/browser/${name}.ts: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    process.exit(1);
  }
  await writeFile(join(out, `${name === 'index' ? 'graphdb' : name}.d.ts`), result.outputText);
}

let raw = 0;
let gz = 0;
const walk = async (dir) => {
  for (const name of await readdir(dir)) {
    const file = join(dir, name);
    if ((await stat(file)).isDirectory()) await walk(file);
    else if (file.endsWith('.js')) {
      const bytes = await readFile(file);
      raw += bytes.length;
      gz += gzipSync(bytes, { level: 9 }).length;
    }
  }
};
await walk(out);
if (!process.argv.includes('--quiet')) console.log(`browser: ${out} ${(raw / 1024).toFixed(0)} KiB minified, ${(gz / 1024).toFixed(0)} KiB gzipped`);
