// Bundles the web console (console/) into dist/console: one ES module (console.js) with
// CodeMirror and cytoscape inside, its stylesheet and its page. `graphdb --http` serves the
// folder at / (src/server/http/console-routes.ts). Prints the sizes, raw and gzipped.
import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const out = 'dist/console';
await mkdir(out, { recursive: true });
await build({
  entryPoints: ['console/src/main.ts'],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  legalComments: 'linked',
  outfile: join(out, 'console.js'),
  logLevel: 'warning',
});
await copyFile('console/index.html', join(out, 'index.html'));
await copyFile('console/style.css', join(out, 'console.css'));

let raw = 0;
let gz = 0;
for (const name of await readdir(out)) {
  const file = join(out, name);
  if (!(await stat(file)).isFile()) continue;
  const bytes = await readFile(file);
  raw += bytes.length;
  gz += gzipSync(bytes, { level: 9 }).length;
}
if (!process.argv.includes('--quiet')) console.log(`console: ${out} ${(raw / 1024).toFixed(0)} KiB, ${(gz / 1024).toFixed(0)} KiB gzipped`);
