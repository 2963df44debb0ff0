#!/usr/bin/env node
// Writes test/file-durations.json, the seconds each test file took in the last full vitest run
// on this machine (vitest's own cache, node_modules/.vite/vitest/*/results.json), for the files
// that took a second or more. vitest.config.ts starts the longest files first with it, also on a
// fresh clone, where vitest has no cache and would start the largest files first instead.
// Refresh it after a full `npm test` when files were added or their durations moved a lot.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(root, 'node_modules', '.vite', 'vitest');
const caches = existsSync(cacheDir) ? readdirSync(cacheDir).map((d) => join(cacheDir, d, 'results.json')).filter((f) => existsSync(f)) : [];
if (caches.length === 0) {
  process.stderr.write(`update-test-durations: no vitest results under ${cacheDir}; run the suite first\n`);
  process.exit(1);
}
const seconds = {};
for (const file of caches) {
  for (const [key, result] of JSON.parse(readFileSync(file, 'utf8')).results) {
    const path = key.slice(key.indexOf(':') + 1);
    if (existsSync(join(root, path)) && result.duration >= 1000) seconds[path] = Math.round(result.duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
writeFileSync(join(root, 'test', 'file-durations.json'), JSON.stringify(sorted, null, 1) + '\n');
process.stdout.write(`test/file-durations.json: ${Object.keys(sorted).length} files\n`);
