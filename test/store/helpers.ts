/**
 * Test helpers for the store: an exact dump of a Graph's observable state (for "rollback
 * restores the previous state" checks), an order-insensitive content dump (for comparing
 * with a model or a replayed graph), and a checker of the store's internal invariants.
 */

import { expect } from 'vitest';
import type { Value } from '../../runtime/values.js';
import type { Node, Rel } from '../../src/store/entities.js';
import type { Graph } from '../../src/store/graph.js';

/** Test values are JSON-friendly (integers, strings, lists of them). */
function plain(value: Value): unknown {
  return value;
}

function propsOf(props: Map<string, Value>): [string, unknown][] {
  return [...props].map(([k, v]) => [k, plain(v)]);
}

/** The live adjacency of `node` in one direction, by type id: relationship and neighbour ids in expansion order. */
export function adjacencyOf(graph: Graph, node: Node, direction: 'out' | 'in'): Map<number, { rels: number[]; nbrs: number[] }> {
  const out = new Map<number, { rels: number[]; nbrs: number[] }>();
  const blocks = direction === 'out' ? graph.adjOut : graph.adjIn;
  blocks.forEach((_block, typeId) => {
    const rels: number[] = [];
    const nbrs: number[] = [];
    graph.forEachAdjacent(node, [typeId], direction, (relId, nbrId) => {
      rels.push(relId);
      nbrs.push(nbrId);
    });
    if (rels.length > 0) out.set(typeId, { rels, nbrs });
  });
  return out;
}

/** The relationship ids of `node`'s adjacency of one type and direction, in order. */
export function listRels(graph: Graph, node: Node, typeId: number, direction: 'out' | 'in'): number[] {
  return adjacencyOf(graph, node, direction).get(typeId)?.rels ?? [];
}

/** The neighbour ids of `node`'s adjacency of one type and direction, in order. */
export function listNbrs(graph: Graph, node: Node, typeId: number, direction: 'out' | 'in'): number[] {
  return adjacencyOf(graph, node, direction).get(typeId)?.nbrs ?? [];
}

function adjacency(graph: Graph, node: Node, direction: 'out' | 'in'): [number, number[], number[]][] {
  return [...adjacencyOf(graph, node, direction)].map(([typeId, { rels, nbrs }]) => [typeId, rels, nbrs]);
}

/** Everything observable, in order: tables, adjacency order, index scan order, counts. */
export function exactDump(graph: Graph): string {
  // Empty slots are not observable (ids of rolled-back creations stay consumed), so skip them.
  const nodes = Array.from(graph.nodes, (_, id) => graph.nodeAt(id))
    .filter((n): n is Node => n !== undefined)
    .map((n) => ({ id: n.id, deleted: n.deleted, labels: [...n.labels], props: propsOf(n.propertyMap()), out: adjacency(graph, n, 'out'), in: adjacency(graph, n, 'in') }));
  const rels = Array.from(graph.rels, (_, id) => graph.relAt(id))
    .filter((r): r is Rel => r !== undefined)
    .map((r) => ({ id: r.id, deleted: r.deleted, type: r.type, start: r.start.id, end: r.end.id, props: propsOf(r.propertyMap()) }));
  const labelSets = graph.labels().map((l) => [l, graph.labelSet(l)?.toArray()]);
  const typeSets = graph.relationshipTypes().map((t) => [t, graph.typeSet(t)?.toArray()]);
  const keys = graph.propertyKeys().map((k) => [k, graph.nodesWithProperty(k), graph.relsWithProperty(k)]);
  return JSON.stringify({
    nodes,
    rels,
    labelSets,
    typeSets,
    keys,
    nodeCount: graph.nodeCount,
    relCount: graph.relCount,
    mutationSeq: graph.mutationSeq,
    fingerprint: graph.fingerprint(),
  });
}

export interface ContentNode {
  id: number;
  labels: string[];
  props: [string, unknown][];
}

export interface ContentRel {
  id: number;
  type: string;
  start: number;
  end: number;
  props: [string, unknown][];
}

export interface Content {
  nodes: ContentNode[];
  rels: ContentRel[];
}

function sortedProps(entries: Iterable<[string, unknown]>): [string, unknown][] {
  return [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

export function contentNode(id: number, labels: Iterable<string>, props: Iterable<[string, unknown]>): ContentNode {
  return { id, labels: [...labels].sort(), props: sortedProps(props) };
}

export function contentRel(id: number, type: string, start: number, end: number, props: Iterable<[string, unknown]>): ContentRel {
  return { id, type, start, end, props: sortedProps(props) };
}

/** Live content only, sorted by id, labels and keys sorted: what a model can predict. */
export function contentDump(graph: Graph): Content {
  const nodes = [...graph.allNodes()].map((n: Node) => contentNode(n.id, n.labels, propsOf(n.propertyMap())));
  const rels = [...graph.allRels()].map((r: Rel) => contentRel(r.id, r.type, r.start.id, r.end.id, propsOf(r.propertyMap())));
  return { nodes, rels };
}

/** Asserts the store's internal invariants (adjacency both ways, indexes, counts). */
export function checkInvariants(graph: Graph): void {
  const liveNodes = [...graph.allNodes()];
  const liveRels = [...graph.allRels()];
  expect(graph.nodeCount).toBe(liveNodes.length);
  expect(graph.relCount).toBe(liveRels.length);

  const cache = new Map<string, Map<number, { rels: number[]; nbrs: number[] }>>();
  const adjacencyCached = (node: Node, direction: 'out' | 'in'): Map<number, { rels: number[]; nbrs: number[] }> => {
    const key = `${direction}${node.id}`;
    let found = cache.get(key);
    if (found === undefined) cache.set(key, (found = adjacencyOf(graph, node, direction)));
    return found;
  };

  // Every live relationship is in its start's outgoing and its end's incoming adjacency exactly once.
  for (const rel of liveRels) {
    expect(graph.nodeAt(rel.start.id)).toBe(rel.start);
    expect(graph.nodeAt(rel.end.id)).toBe(rel.end);
    expect(rel.typeId).toBe(graph.typeId(rel.type));
    const outHits = adjacencyCached(rel.start, 'out').get(rel.typeId)?.rels.filter((id) => id === rel.id).length ?? 0;
    const inHits = adjacencyCached(rel.end, 'in').get(rel.typeId)?.rels.filter((id) => id === rel.id).length ?? 0;
    expect(outHits).toBe(1);
    expect(inHits).toBe(1);
  }

  // Nothing else is in adjacency: every entry is a live relationship with matching ends.
  const nodesToScan = Array.from(graph.nodes, (_, id) => graph.nodeAt(id)).filter((n): n is Node => n !== undefined);
  let outEntries = 0;
  let inEntries = 0;
  for (const node of nodesToScan) {
    adjacencyCached(node, 'out').forEach((list, typeId) => {
      for (let i = 0; i < list.rels.length; i++) {
        const rel = graph.relAt(list.rels[i]);
        expect(rel).toBeDefined();
        expect(rel!.deleted).toBe(false);
        expect(rel!.start).toBe(node);
        expect(rel!.end.id).toBe(list.nbrs[i]);
        expect(rel!.typeId).toBe(typeId);
        outEntries++;
      }
    });
    adjacencyCached(node, 'in').forEach((list, typeId) => {
      for (let i = 0; i < list.rels.length; i++) {
        const rel = graph.relAt(list.rels[i]);
        expect(rel).toBeDefined();
        expect(rel!.deleted).toBe(false);
        expect(rel!.end).toBe(node);
        expect(rel!.start.id).toBe(list.nbrs[i]);
        expect(rel!.typeId).toBe(typeId);
        inEntries++;
      }
    });
  }
  expect(outEntries).toBe(liveRels.length);
  expect(inEntries).toBe(liveRels.length);

  // Label sets hold exactly the live nodes carrying the label.
  const labelNames = new Set<string>();
  for (const node of liveNodes) {
    expect(new Set(node.labels).size).toBe(node.labels.length);
    for (const label of node.labels) labelNames.add(label);
  }
  expect([...graph.labels()].sort()).toEqual([...labelNames].sort());
  for (const label of labelNames) {
    const expected = liveNodes.filter((n) => n.hasLabel(label)).map((n) => n.id).sort((a, b) => a - b);
    const set = graph.labelSet(label)!;
    expect(set.toArray().sort((a, b) => a - b)).toEqual(expected);
    for (const id of expected) expect(set.has(id)).toBe(true);
    expect(graph.labelCount(label)).toBe(expected.length);
  }
  for (const node of Array.from(graph.nodes, (_, id) => graph.nodeAt(id))) {
    if (node === undefined || !node.deleted) continue;
    for (const label of node.labels) expect(graph.labelSet(label)?.has(node.id) ?? false).toBe(false);
  }

  // Type sets hold exactly the live relationships of the type.
  const types = new Set(liveRels.map((r) => r.type));
  expect([...graph.relationshipTypes()].sort()).toEqual([...types].sort());
  for (const type of types) {
    const expected = liveRels.filter((r) => r.type === type).map((r) => r.id).sort((a, b) => a - b);
    expect(graph.typeSet(type)!.toArray().sort((a, b) => a - b)).toEqual(expected);
    expect(graph.typeCount(type)).toBe(expected.length);
  }

  // Property key counts.
  const keys = new Set<string>();
  for (const e of [...liveNodes, ...liveRels]) for (const k of e.propKeys()) keys.add(k);
  expect([...graph.propertyKeys()].sort()).toEqual([...keys].sort());
  for (const key of keys) {
    expect(graph.nodesWithProperty(key)).toBe(liveNodes.filter((n) => n.hasProp(key)).length);
    expect(graph.relsWithProperty(key)).toBe(liveRels.filter((r) => r.hasProp(key)).length);
  }
  for (const e of [...liveNodes, ...liveRels]) for (const v of e.propertyMap().values()) expect(v).not.toBeNull();
}
