// Bundles the web console (console/) into dist/console: one ES module (console.js) with
// CodeMirror and cytoscape inside, its stylesheet and its page. `graphdb --http` serves the
// folder at / (src/server/http/console-routes.ts). Each file also gets its brotli (.br) and
// gzip (.gz) copy, which the server sends to clients that accept them (static-assets.ts), so
// no request waits for compression. Prints the sizes: raw, gzip and brotli.
import { copyFile, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const out = 'dist/console';
// A clean folder: copies left from an older build must not outlive their file.
await rm(out, { recursive: true, force: true });
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
let br = 0;
for (const name of await readdir(out)) {
  const file = join(out, name);
  if (!(await stat(file)).isFile()) continue;
  const bytes = await readFile(file);
  const gzipped = gzipSync(bytes, { level: 9 });
  const brotli = brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } });
  await writeFile(file + '.gz', gzipped);
  await writeFile(file + '.br', brotli);
  raw += bytes.length;
  gz += gzipped.length;
  br += brotli.length;
}
if (!process.argv.includes('--quiet')) {
  console.log(`console: ${out} ${(raw / 1024).toFixed(0)} KiB, ${(gz / 1024).toFixed(0)} KiB gzipped, ${(br / 1024).toFixed(0)} KiB brotli`);
}
