/**
 * Where the installed graphdb package lives and what version it is: the one source of the
 * version string every surface reports (CLI --version, HTTP GET /status, MCP serverInfo,
 * PG SHOW SERVER_VERSION). Code runs from `dist/...` after a build and from the sources
 * under tsx, so the package root is found by walking up to the nearest `package.json`
 * named `graphdb` rather than by a fixed path; package.json is read once.
 */

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

/** The product name reported beside the version. */
export const PRODUCT_NAME = 'graphdb';

let cachedRoot: string | undefined;
let cachedVersion: string | undefined;

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
    if (parent === dir) throw new Error('graphdb: cannot find the package root (no package.json named graphdb above this module)');
    dir = parent;
  }
}

/** The version string from package.json. */
export function packageVersion(): string {
  cachedVersion ??= readPackageJson(packageRoot())?.version ?? '0.0.0';
  return cachedVersion;
}
