/**
 * Routes through the schema from the labels a question starts at to the label it asks for:
 * "Which hospital does Ann work at?" starts at a `:Clinician` and asks for a `:Hospital`; the
 * schema (the labels seen at each end of each relationship type, sampled) joins them by
 * `HOLDS_POST_IN` then `partOf`. The types on the shortest such routes (up to MAX_ROUTE_HOPS)
 * are offered to the path walk (paths.ts) as connectors: they add nothing to a path's coverage
 * of the question's phrases, but a chain may cross them to reach the asked label, and when no
 * phrase of the question names a relation at all, the shortest route to the asked label is the
 * answer's chain. Cached per graph until its relationship count changes.
 */

import type { Graph } from '../store/graph.js';

/** Relationships sampled per type for the labels at its ends. */
const SAMPLE = 64;
export const MAX_ROUTE_HOPS = 3;

interface Edge {
  type: string;
  from: string;
  to: string;
}
const cache = new WeakMap<Graph, { relCount: number; edges: Edge[] }>();

/** Label-to-label edges of the schema, one per (type, start label, end label) seen in a sample of each type. */
export function schemaEdges(graph: Graph): readonly Edge[] {
  const cached = cache.get(graph);
  if (cached && cached.relCount === graph.relCount) return cached.edges;
  const edges: Edge[] = [];
  const seen = new Set<string>();
  for (const type of graph.relationshipTypes()) {
    let n = 0;
    for (const id of graph.typeSet(type)?.toArray() ?? []) {
      if (n++ >= SAMPLE) break;
      const rel = graph.rel(id);
      if (!rel || rel.deleted) continue;
      for (const from of rel.start.labels) {
        for (const to of rel.end.labels) {
          const key = `${type}\u0000${from}\u0000${to}`;
          if (seen.has(key)) continue;
          seen.add(key);
          edges.push({ type, from, to });
        }
      }
    }
  }
  cache.set(graph, { relCount: graph.relCount, edges });
  return edges;
}

/**
 * The relationship types on the shortest routes (either direction per hop, no type twice)
 * from any of `fromLabels` to any of `toLabels`, at most MAX_ROUTE_HOPS hops; none when a
 * start label is already asked for or no route is that short.
 */
export function routeTypes(graph: Graph, fromLabels: readonly string[], toLabels: readonly string[], maxHops = MAX_ROUTE_HOPS): string[] {
  if (fromLabels.length === 0 || toLabels.length === 0 || fromLabels.some((l) => toLabels.includes(l))) return [];
  const edges = schemaEdges(graph);
  const found: string[][] = [];
  let frontier: { label: string; types: string[] }[] = fromLabels.map((label) => ({ label, types: [] }));
  for (let hop = 1; hop <= maxHops && found.length === 0; hop++) {
    const next: { label: string; types: string[] }[] = [];
    for (const at of frontier) {
      for (const e of edges) {
        if (at.types.includes(e.type)) continue;
        const other = e.from === at.label ? e.to : e.to === at.label ? e.from : undefined;
        if (other === undefined) continue;
        const route = { label: other, types: [...at.types, e.type] };
        if (toLabels.includes(other)) found.push(route.types);
        else next.push(route);
      }
    }
    frontier = next;
  }
  return [...new Set(found.flat())];
}

/**
 * The relationship types on the shortest routes from `fromLabels` to the labels at either end of `type`, when `type` does
 * not touch them: "Where is the network that shows T headquartered?" names `HQ_CITY`, which leaves a `:BROADCASTER`,
 * not the `:Title` T is; the schema joins them by `AIRS_ON` then `operatedBy`, and the path walk may cross those to reach
 * the named relation. The shortest routes to each end label are taken apart. None when `type` already touches one of
 * `fromLabels` or no route is short enough.
 */
export function routeTypesTo(graph: Graph, fromLabels: readonly string[], type: string): string[] {
  const ends = new Set<string>();
  for (const e of schemaEdges(graph)) {
    if (e.type !== type) continue;
    ends.add(e.from);
    ends.add(e.to);
  }
  if (ends.size === 0 || fromLabels.some((l) => ends.has(l))) return [];
  // The shortest routes to each end (one end may be near by another way: `launchedIn` reaches the town, not the authority
  // seated in it); a route leaves room for the type itself within the walk's hops.
  return [...new Set([...ends].flatMap((end) => routeTypes(graph, fromLabels, [end], MAX_ROUTE_HOPS - 1)))].filter((t) => t !== type);
}

/** Prepositions of place and of the place moved to that end a relationship type's name (`appearedIn`, `premieredAt`, `MOUNTED_ON`, `PUBLISHED_TO`). */
const LOCATIVE: ReadonlySet<string> = new Set(['in', 'at', 'on', 'inside', 'within', 'to', 'into', 'onto']);

/**
 * The labels at the far end of the types leaving `fromLabels` whose name ends in a preposition of
 * place: what an entity of those labels is *in*, *at* or *on* (a journal a paper appeared in, a
 * festival a film premiered at), which a "where" question about that entity asks for as it asks
 * for a place.
 */
export function locativeEnds(graph: Graph, fromLabels: readonly string[]): string[] {
  const out = new Set<string>();
  for (const e of schemaEdges(graph)) {
    if (!fromLabels.includes(e.from) || fromLabels.includes(e.to)) continue;
    const words = e.type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
    if (words.length > 1 && LOCATIVE.has(words[words.length - 1])) out.add(e.to);
  }
  return [...out];
}

/** Whether any of the types is seen ending at one of the labels (`LOCATED_IN` at `:City`). */
export function typesReach(graph: Graph, types: readonly string[], labels: readonly string[]): boolean {
  return types.length > 0 && labels.length > 0 && schemaEdges(graph).some((e) => types.includes(e.type) && labels.includes(e.to));
}

/** Whether some type leaving one of `labels` ends its name in `preposition` (`indicatedFor` for "for", `ACTED_IN` for "in"). */
export function leavesNamedWith(graph: Graph, labels: readonly string[], preposition: string): boolean {
  return schemaEdges(graph).some((e) => labels.includes(e.from) && lastWord(e.type) === preposition);
}

function lastWord(type: string): string | undefined {
  const words = type.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
  return words.length > 1 ? words[words.length - 1] : undefined;
}
