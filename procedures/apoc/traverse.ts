/**
 * What the APOC traversal procedures share: APOC's relationship filter text
 * (`KNOWS>|<LIKES|WORKS_AT`, `>` for any outgoing) and label filter text (`+Person|-Banned|/Stop|>End`),
 * and the one step from a node along the relationships a filter admits.
 */

import type { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';
import { invalidArgument } from '../define.js';

export type Direction = 'out' | 'in' | 'both';

export interface RelFilter {
  /** Allowed (type, direction) pairs; a null type means any type. */
  rules: { type: string | null; direction: Direction }[];
}

export function parseRelFilter(text: string | null, proc: string, arg: string): RelFilter {
  if (text === null || text.trim() === '') return { rules: [{ type: null, direction: 'both' }] };
  const rules = text.split('|').map((part) => {
    let p = part.trim();
    let direction: Direction = 'both';
    if (p.startsWith('<')) {
      direction = 'in';
      p = p.slice(1);
    } else if (p.endsWith('>')) {
      direction = 'out';
      p = p.slice(0, -1);
    } else if (p.endsWith('<')) {
      direction = 'in';
      p = p.slice(0, -1);
    }
    if (p.includes('<') || p.includes('>')) throw invalidArgument(proc, arg, `has an unreadable part '${part}'`);
    return { type: p === '' ? null : p, direction };
  });
  return { rules };
}

/** Every (relationship, neighbour) step from `node` the filter allows, each relationship once. */
export function steps(g: Graph, node: Node, filter: RelFilter): { rel: Rel; next: Node }[] {
  const out: { rel: Rel; next: Node }[] = [];
  const seen = new Set<number>();
  for (const rule of filter.rules) {
    const typeId = rule.type === null ? null : g.typeId(rule.type);
    if (typeId === undefined) continue;
    g.forEachAdjacent(node, typeId === null ? null : [typeId], rule.direction, (rid, _nbr, isIn) => {
      if (seen.has(rid)) return;
      const rel = g.rel(rid);
      if (!rel) return;
      seen.add(rid);
      out.push({ rel, next: isIn ? rel.start : rel.end });
    });
  }
  return out;
}

/** APOC's label filter: which nodes may be walked through, where walks stop, and which end nodes are returned. */
export interface LabelFilter {
  allow: string[];
  deny: string[];
  /** `/Label`: return the path at the first such node and go no further. */
  stopAt: string[];
  /** `>Label`: return paths ending at such nodes, but keep going. */
  endAt: string[];
}

export function parseLabelFilter(text: string | null): LabelFilter {
  const f: LabelFilter = { allow: [], deny: [], stopAt: [], endAt: [] };
  if (text === null) return f;
  for (const raw of text.split(/[|,]/)) {
    const p = raw.trim();
    if (p === '' || p === '*') continue;
    const label = p.slice(1);
    if (p[0] === '+') f.allow.push(label);
    else if (p[0] === '-') f.deny.push(label);
    else if (p[0] === '/') f.stopAt.push(label);
    else if (p[0] === '>') f.endAt.push(label);
    else f.allow.push(p);
  }
  return f;
}

/** Whether a walk may reach `n` at all. */
export function admits(f: LabelFilter, n: Node): boolean {
  if (f.deny.some((l) => n.hasLabel(l))) return false;
  if (f.allow.length > 0 && !f.allow.some((l) => n.hasLabel(l)) && !f.stopAt.some((l) => n.hasLabel(l)) && !f.endAt.some((l) => n.hasLabel(l))) return false;
  return true;
}

/** Whether a path ending at `n` is returned (given the filter has end or stop labels). */
export function isResultEnd(f: LabelFilter, n: Node): boolean {
  if (f.stopAt.length === 0 && f.endAt.length === 0) return true;
  return f.stopAt.some((l) => n.hasLabel(l)) || f.endAt.some((l) => n.hasLabel(l));
}

export function stopsAt(f: LabelFilter, n: Node): boolean {
  return f.stopAt.some((l) => n.hasLabel(l));
}
