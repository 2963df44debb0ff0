#!/usr/bin/env node
// `npm start`'s build step: runs `npm run build` only when a source the build reads is newer
// than the last build it ran (its stamp, dist/.dev-build; tsc leaves its own record untouched when nothing changed), so starting the playground
// on an up-to-date checkout takes a moment instead of a full type-check.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const record = join(root, 'dist', '.dev-build');
const SOURCES = ['src', 'codegen', 'runtime', 'procedures', 'functions', 'grammar', 'fixtures', 'bench', 'test/tck', 'tsconfig.json', 'package.json'];

/** True when some file under `path` changed after `since` (ms); generated output is not a source. */
function changedSince(path, since) {
  if (!existsSync(path)) return false;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs > since;
  return readdirSync(path, { withFileTypes: true }).some((e) => e.name !== 'generated' && e.name !== 'data' && e.name !== 'results' && changedSince(join(path, e.name), since));
}

const built = existsSync(record) ? statSync(record).mtimeMs : -Infinity;
if (built > -Infinity && !SOURCES.some((p) => changedSince(join(root, p), built))) process.exit(0);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const startedAt = new Date();
const r = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (r.status === 0) writeFileSync(record, startedAt.toISOString());
process.exit(r.status ?? 1);
