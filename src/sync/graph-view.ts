/**
 * Sync's only window onto the store: it reads an element's content by local id, lists the
 * live elements, and makes one element match the content the replicated state wants, all
 * through `Graph`'s public methods (`node`, `rel`, `createNode`, `setProperty`, …). Keeping
 * this in one file means a change of the store's layout touches sync here and nowhere else.
 */

import type { Value } from '../../runtime/values.js';
import type { Graph } from '../store/graph.js';
import { encodeValue } from '../store/persist/value-codec.js';
import type { ElementContent } from './content-hash.js';

/** Global id of a local node / relationship id, as the id map knows it. */
export interface GidLookup {
  nodeGid(localId: number): string | undefined;
  relGid(localId: number): string | undefined;
}

export function nodeContent(graph: Graph, localId: number, gid: string): ElementContent | undefined {
  const n = graph.node(localId);
  if (!n) return undefined;
  return { kind: 'node', gid, labels: [...n.labels], type: '', start: '', end: '', props: new Map(n.propertyMap()) };
}

export function relContent(graph: Graph, localId: number, gid: string, ids: GidLookup): ElementContent | undefined {
  const r = graph.rel(localId);
  if (!r) return undefined;
  return {
    kind: 'rel',
    gid,
    labels: [],
    type: r.type,
    start: ids.nodeGid(r.start.id) ?? '',
    end: ids.nodeGid(r.end.id) ?? '',
    props: new Map(r.propertyMap()),
  };
}

/** Local ids of the live nodes. */
export function* liveNodeIds(graph: Graph): Generator<number> {
  for (let id = 0; id < graph.nextNodeId; id++) if (graph.node(id)) yield id;
}

/** Local ids of the live relationships. */
export function* liveRelIds(graph: Graph): Generator<number> {
  for (let id = 0; id < graph.nextRelId; id++) if (graph.rel(id)) yield id;
}

/** Local endpoints of a live relationship. */
export function relEnds(graph: Graph, localId: number): [number, number] | undefined {
  const r = graph.rel(localId);
  return r ? [r.start.id, r.end.id] : undefined;
}

/** Same stored value (integer and float apart, like the store's own encoding). */
function sameValue(a: Value, b: Value): boolean {
  return JSON.stringify(encodeValue(a)) === JSON.stringify(encodeValue(b));
}

function propsToMap(props: ReadonlyMap<string, Value>): Map<string, Value> {
  return new Map([...props].filter(([, v]) => v !== null));
}

/** Inside a write transaction: brings the node to `want` (undefined: absent). Returns its local id afterwards. */
export function materializeNode(graph: Graph, localId: number | undefined, want: ElementContent | undefined): number | undefined {
  const n = localId === undefined ? undefined : graph.node(localId);
  if (!want) {
    if (n) graph.detachDeleteNode(n);
    return undefined;
  }
  if (!n) return graph.createNode(want.labels, propsToMap(want.props)).id;
  for (const l of [...n.labels]) if (!want.labels.includes(l)) graph.removeLabel(n, l);
  for (const l of want.labels) if (!n.labels.includes(l)) graph.addLabel(n, l);
  syncProps(graph, n, want.props);
  return n.id;
}

/** As `materializeNode` for a relationship; `start`/`end` are the endpoints' local ids. */
export function materializeRel(
  graph: Graph,
  localId: number | undefined,
  want: ElementContent | undefined,
  start: number | undefined,
  end: number | undefined,
): number | undefined {
  const r = localId === undefined ? undefined : graph.rel(localId);
  if (!want) {
    if (r) graph.deleteRel(r);
    return undefined;
  }
  if (!r) {
    const s = start === undefined ? undefined : graph.node(start);
    const e = end === undefined ? undefined : graph.node(end);
    if (!s || !e) return undefined;
    return graph.createRel(want.type, s, e, propsToMap(want.props)).id;
  }
  syncProps(graph, r, want.props);
  return r.id;
}

function syncProps(graph: Graph, entity: Parameters<Graph['setProperty']>[0], want: ReadonlyMap<string, Value>): void {
  for (const k of entity.propKeys()) if (!want.has(k) || want.get(k) === null) graph.setProperty(entity, k, null);
  for (const [k, v] of want) {
    if (v === null) continue;
    const have = entity.prop(k);
    if (have === undefined || !sameValue(have, v)) graph.setProperty(entity, k, v);
  }
}
