/**
 * Sync scopes (`graphdb sync scopes`): named subsets of the graph by node label and
 * relationship type, kept in `graphdb.sync.scopes.json` in the data directory. This version
 * records and lists them; push and pull still carry the whole feed (see docs/SYNC.md).
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../errors.js';
import { durableRename } from '../store/persist/fsync-dir.js';

export const SCOPES_FILE = 'graphdb.sync.scopes.json';

export interface SyncScope {
  name: string;
  labels: string[];
  types: string[];
}

export function readScopes(dir: string): SyncScope[] {
  const file = path.join(dir, SCOPES_FILE);
  if (!fs.existsSync(file)) return [];
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
    if (!Array.isArray(data)) throw new Error('not a list');
    return data.map((s: unknown) => {
      const o = s as SyncScope;
      if (typeof o.name !== 'string' || !Array.isArray(o.labels) || !Array.isArray(o.types)) throw new Error('bad scope');
      return { name: o.name, labels: o.labels.map(String), types: o.types.map(String) };
    });
  } catch (err) {
    throw new StorageError(`${file} is damaged: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function writeScopes(dir: string, scopes: readonly SyncScope[]): void {
  const file = path.join(dir, SCOPES_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(scopes, null, 2) + '\n');
  durableRename(`${file}.tmp`, file);
}
