#!/usr/bin/env node
// The `graphdb` executable: runs the compiled CLI (src/cli/main.ts, built into dist/ by `npm run build`).
let cli;
try {
  cli = await import('../dist/src/cli/main.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    process.stderr.write('graphdb: the CLI is not built yet; run `npm run build` first.\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await cli.main(process.argv);
