/** Small fixtures for runtime tests: nodes, relationships and paths without a store. */
import { Node, Rel } from '../../src/store/entities.js';
import { Path, type Value } from '../../runtime/values.js';

export function node(id: number, labels: string[] = [], props: Record<string, Value> = {}): Node {
  return new Node(id, labels, new Map(Object.entries(props)));
}

export function rel(id: number, type: string, start: Node, end: Node, props: Record<string, Value> = {}): Rel {
  return new Rel(id, type, 0, start, end, new Map(Object.entries(props)));
}

export function path(nodes: Node[], rels: Rel[]): Path {
  return new Path(nodes, rels);
}

export function map(o: Record<string, Value>): Map<string, Value> {
  return new Map(Object.entries(o));
}
