#!/usr/bin/env node
// The `graphdb-mcp` executable: runs the compiled MCP server (src/mcp/main.ts, built into dist/ by `npm run build`).
let mcp;
try {
  mcp = await import('../dist/src/mcp/main.js');
} catch (err) {
  if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist')) {
    process.stderr.write('graphdb-mcp: not built yet; run `npm run build` first.\n');
    process.exit(1);
  }
  throw err;
}
process.exitCode = await mcp.main(process.argv.slice(2));
