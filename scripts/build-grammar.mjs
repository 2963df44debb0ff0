#!/usr/bin/env node
// Generates the parser with antlr-ng only when the grammar is newer than the generated
// parser (or the parser is missing), so `npm start` and `npm test` do not redo it each time.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const grammar = resolve(root, 'grammar', 'Gql.g4');
const generated = resolve(root, 'src', 'frontend', 'generated', 'GqlParser.ts');
if (existsSync(generated) && statSync(generated).mtimeMs >= statSync(grammar).mtimeMs && !process.argv.includes('--force')) process.exit(0);
const run = spawnSync(
  'npx',
  ['antlr-ng', '-Dlanguage=TypeScript', '--generate-visitor', 'false', '--generate-listener', 'false', '-o', 'src/frontend/generated', 'grammar/Gql.g4'],
  { cwd: root, stdio: 'inherit' },
);
process.exit(run.status ?? 1);
