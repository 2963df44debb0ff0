/**
 * Runs the built `graphdb` executable as a child process for the CLI tests (they assume
 * `npm run build` has produced dist/, as `npm test` does). History is switched off and
 * colour disabled so that output is plain and the user's files are untouched.
 */

import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const BIN = fileURLToPath(new URL('../../bin/graphdb.js', import.meta.url));

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], input = '', env: Record<string, string> = {}): CliRun {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    input,
    encoding: 'utf8',
    timeout: 20000,
    env: { ...process.env, GRAPHDB_HISTORY: '', NO_COLOR: '1', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}
