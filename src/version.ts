/**
 * Where the installed graphdb package lives and what version it is. The CLI runs from
 * `dist/src/cli` after a build and from `src/cli` under tsx, so the package root is found
 * by walking up to the nearest `package.json` named `graphdb` rather than by a fixed path.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

let cachedRoot: string | undefined;

function readPackageJson(dir: string): PackageJson | undefined {
  const file = join(dir, 'package.json');
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The directory holding graphdb's package.json (and `fixtures/`). */
export function packageRoot(): string {
  if (cachedRoot !== undefined) return cachedRoot;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (readPackageJson(dir)?.name === 'graphdb') return (cachedRoot = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error('graphdb: cannot find the package root (no package.json named graphdb above the CLI)');
    dir = parent;
  }
}

/** The version string from package.json. */
export function packageVersion(): string {
  return readPackageJson(packageRoot())?.version ?? '0.0.0';
}
