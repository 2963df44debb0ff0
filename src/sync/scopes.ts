/**
 * Sync scopes (`graphdb sync scopes`): named subsets of the graph by node label and
 * relationship type, kept in `graphdb.sync.scopes.json` in the data directory, and what
 * membership means (docs/SYNC.md, "Scopes"): a node is in scope while it is live and has one
 * of the scope's labels (any node when the scope lists none); a relationship while it is
 * live, has one of the scope's types (any type when none are listed) and both its endpoints
 * are in scope. A scoped peer sends and accepts only what is in its scope: `scopedStatements`
 * is what a feed carries to it (the current state of each in-scope element the range
 * touched, which also brings elements that entered the scope later), `scopedOps` is what it
 * keeps of a payload. Deletions always travel: they carry nothing but an id.
 */

import * as fs from 'node:fs';
import * as path from 'node:path';
import { StorageError } from '../errors.js';
import { durableRename } from '../store/persist/fsync-dir.js';
import { SyncPayloadError } from './errors.js';
import type { ScopeFilter } from './options.js';
import { SyncState } from './state.js';
import { formatStatement, type SyncOp } from './statements.js';

export const SCOPES_FILE = 'graphdb.sync.scopes.json';

export type { ScopeFilter } from './options.js';

export interface SyncScope extends ScopeFilter {
  name: string;
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
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, SCOPES_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(scopes, null, 2) + '\n');
  durableRename(`${file}.tmp`, file);
}

/** The named scope of `dir`, or the filter given as is. */
export function resolveScope(scope: string | ScopeFilter, dir: string | undefined): ScopeFilter {
  if (typeof scope !== 'string') return checkScope(scope);
  if (dir === undefined) throw new SyncPayloadError(`sync scope "${scope}" is looked up in the data directory: give a data directory, or the scope's labels and types`);
  const found = readScopes(dir).find((s) => s.name === scope);
  if (!found) throw new SyncPayloadError(`no sync scope named "${scope}" in ${dir} (add it with: graphdb sync scopes --add ${scope} --labels … --types …)`);
  return { labels: found.labels, types: found.types };
}

/** A scope from the wire (the pull route's `scope` parameter) or an option: two lists of strings. */
export function checkScope(data: unknown): ScopeFilter {
  const o = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
  const list = (key: string): string[] => {
    const v = o[key] ?? [];
    if (!Array.isArray(v) || v.length > 10_000 || v.some((x) => typeof x !== 'string')) throw new SyncPayloadError(`the scope's "${key}" must be a list of strings`);
    return v as string[];
  };
  return { labels: list('labels'), types: list('types') };
}

/** Whether the element `gid` is in `scope` in `state` (see the top of this file). */
export function inScope(state: SyncState, gid: string, scope: ScopeFilter): boolean {
  const e = state.get(gid);
  if (!e || !state.isLive(gid)) return false;
  if (e.kind === 'rel') return (scope.types.length === 0 || scope.types.includes(e.type)) && inScope(state, e.start, scope) && inScope(state, e.end, scope);
  if (scope.labels.length === 0) return true;
  for (const label of scope.labels) if (e.labels.get(label)?.value === true) return true;
  return false;
}

/**
 * What a feed range that touched `gids` carries to a peer with `scope`: for each in-scope
 * element (and each in-scope relationship of an in-scope node, which may have entered the
 * scope with it) its whole current state; for each deleted one its DELETE. Nodes come first,
 * so a receiver that filters by scope knows the endpoints before the relationships.
 */
export function scopedStatements(state: SyncState, gids: Iterable<string>, scope: ScopeFilter): string[] {
  const nodes = new Set<string>();
  const rels = new Set<string>();
  for (const gid of gids) {
    const e = state.get(gid);
    if (!e) continue;
    if (e.deleted !== undefined || !inScope(state, gid, scope)) {
      if (e.deleted !== undefined) (e.kind === 'node' ? nodes : rels).add(gid);
      continue;
    }
    if (e.kind === 'rel') {
      rels.add(gid);
      continue;
    }
    nodes.add(gid);
    for (const r of state.relsOf(gid)) if (inScope(state, r, scope)) rels.add(r);
  }
  const out: string[] = [];
  for (const gid of [...nodes, ...rels]) for (const op of state.statementsOf(gid)) out.push(formatStatement(op));
  return out;
}

/**
 * What a peer with `scope` keeps of a payload: the statements about elements that are in
 * scope once the payload is merged (worked out on copies of the elements involved, so that
 * nothing out of scope is ever stored), and every DELETE.
 */
export function scopedOps(state: SyncState, ops: readonly SyncOp[], scope: ScopeFilter): SyncOp[] {
  const trial = new SyncState();
  const seed = (gid: string): void => {
    if (trial.elements.has(gid)) return;
    const e = state.saved(gid);
    if (!e) return;
    trial.elements.set(gid, e);
    if (e.kind === 'rel' && e.created !== undefined) {
      seed(e.start);
      seed(e.end);
    }
  };
  for (const op of ops) {
    seed(op.gid);
    if (op.verb === 'CREATE' && op.kind === 'rel') {
      seed(op.start);
      seed(op.end);
    }
  }
  for (const op of ops) trial.merge(op);
  return ops.filter((op) => op.verb === 'DELETE' || inScope(trial, op.gid, scope));
}
