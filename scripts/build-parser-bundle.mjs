#!/usr/bin/env node
// Bundles the built parser (dist/src/frontend/parser.js) with everything only it uses (the
// rest of src/frontend/ it imports, the generated lexer and parser, antlr4ng) into one
// CommonJS file, dist/src/frontend/parser.bundle.cjs, which src/lazy-module.ts loads through a
// V8 code cache (src/code-cache.ts): about a megabyte of JavaScript a process then need not
// compile again. Modules outside src/frontend/ (the error classes, the governor) stay outside
// the bundle, required from the built tree, so the engine and the parser share one copy of
// each. The first line carries the bundle's hash, which names its cache file.
// Run after tsc (npm run build, scripts/build-dist.mjs); esbuild is a devDependency.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const frontend = join(root, 'dist', 'src', 'frontend');
const entry = join(frontend, 'parser.js');
const outfile = join(frontend, 'parser.bundle.cjs');

/** Relative imports leaving dist/src/frontend/ stay imports of the built tree, rewritten relative to the bundle. */
const keepEngineModules = {
  name: 'keep-engine-modules',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const target = resolve(args.resolveDir, args.path);
      if (target.startsWith(frontend + sep)) return undefined;
      const path = relative(dirname(outfile), target).split(sep).join('/');
      return { path: path.startsWith('.') ? path : `./${path}`, external: true };
    });
  },
};

const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [entry],
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // Fewer bytes to read and hash; names stay (error messages and stack traces use them).
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  write: false,
  logLevel: 'warning',
  plugins: [keepEngineModules],
});
const code = result.outputFiles[0].text;
const hash = createHash('sha256').update(code).digest('hex');
writeFileSync(outfile, `// bundle-hash ${hash}\n${code}`);
