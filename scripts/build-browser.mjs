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
