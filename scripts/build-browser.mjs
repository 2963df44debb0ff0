// Bundles the browser build (`graphdb/browser`, docs/BROWSER.md) into dist/browser: the page
// client (graphdb.js), the Web Worker that runs the engine (graphdb-worker.js), the in-page
// engine (graphdb-engine.js), and the chunk they share, with the module replacements of
// browser-bundle-options.mjs. Prints the sizes, minified and gzipped.
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import ts from 'typescript';
import { browserBundleOptions } from './browser-bundle-options.mjs';

const root = resolve(import.meta.dirname, '..');
const out = join(root, 'dist/browser');

await rm(out, { recursive: true, force: true });
await mkdir(out, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    graphdb: 'src/browser/index.ts',
    'graphdb-worker': 'src/browser/worker.ts',
    'graphdb-engine': 'src/browser/engine.ts',
  },
  ...(await browserBundleOptions(root)),
  splitting: true,
  minify: !process.argv.includes('--no-minify'),
  legalComments: 'linked',
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

// Type declarations of the page client: its modules import nothing of the engine, so each is
// declared on its own (isolated declarations, no type-check: `npm run typecheck` does that).
for (const name of ['index', 'types', 'protocol', 'client-error', 'relay']) {
  const source = await readFile(join(root, 'src/browser', `${name}.ts`), 'utf8');
  const result = ts.transpileDeclaration(source, { fileName: `${name}.ts`, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, strict: true }, reportDiagnostics: true });
  if (result.diagnostics?.length) {
    for (const d of result.diagnostics) console.error(`src/browser/${name}.ts: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    process.exit(1);
  }
  await writeFile(join(out, `${name === 'index' ? 'graphdb' : name}.d.ts`), result.outputText);
}

// The static playground: a small entry that installs a backend running the engine in a Web
// Worker of the page (with the demo graph written in), then loads the web console's own bundle
// from ../../console (dist/console), so the package carries the console once.
const playground = join(out, 'playground');
await rm(playground, { recursive: true, force: true });
await mkdir(playground, { recursive: true });
await build({
  ...(await browserBundleOptions(root)),
  entryPoints: [join(root, 'src/browser/playground.ts')],
  minify: !process.argv.includes('--no-minify'),
  legalComments: 'linked',
  outfile: join(playground, 'playground.js'),
  logLevel: 'warning',
  define: { ...(await browserBundleOptions(root)).define, __PLAYGROUND_SCRIPT__: JSON.stringify(await readFile(join(root, 'fixtures/playground.cypher'), 'utf8')) },
  plugins: [
    ...(await browserBundleOptions(root)).plugins,
    {
      name: 'playground-engine',
      setup(b) {
        // The client's in-page mode (unused here) loads the engine module already beside it, not a second copy.
        b.onResolve({ filter: /^\.\/engine\.js$/ }, (args) => (args.resolveDir === join(root, 'src/browser') ? { path: '../graphdb-engine.js', external: true } : undefined));
      },
    },
  ],
});
const page = (await readFile(join(root, 'console/index.html'), 'utf8'))
  .replace('<title>graphdb console</title>', '<title>graphdb playground</title>')
  .replace('href="/console/console.css"', 'href="../../console/console.css"')
  .replace('src="/console/console.js"', 'src="playground.js"');
if (!page.includes('src="playground.js"') || !page.includes('href="../../console/console.css"')) throw new Error('console/index.html no longer names /console/console.js and /console/console.css: update the playground page');
await writeFile(join(playground, 'index.html'), page);

/** Bytes of the .js files under `dir` (skipping `skip`), raw and gzipped. */
async function sizes(dir, skip) {
  let raw = 0;
  let gz = 0;
  const walk = async (d) => {
    for (const name of await readdir(d)) {
      const file = join(d, name);
      if (file === skip) continue;
      if ((await stat(file)).isDirectory()) await walk(file);
      else if (file.endsWith('.js')) {
        const bytes = await readFile(file);
        raw += bytes.length;
        gz += gzipSync(bytes, { level: 9 }).length;
      }
    }
  };
  await walk(dir);
  return `${(raw / 1024).toFixed(0)} KiB minified, ${(gz / 1024).toFixed(0)} KiB gzipped`;
}
if (!process.argv.includes('--quiet')) {
  console.log(`browser: ${out} engine, worker and client ${await sizes(out, playground)}; playground console ${await sizes(playground)}`);
}
