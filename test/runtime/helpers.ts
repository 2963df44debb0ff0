/** Small fixtures for runtime tests: nodes, relationships and paths without a graph (each entity gets its own property columns). */
import { PropertyStore } from '../../src/store/columns/property-store.js';
import { Node, Rel } from '../../src/store/entities.js';
import { Interner } from '../../src/store/interner.js';
import { Path, type Value } from '../../runtime/values.js';

/** A property store holding `props` for entity `id` alone. */
export function storeWith(id: number, props: Record<string, Value>): PropertyStore {
  const store = new PropertyStore(new Interner());
  for (const [key, value] of Object.entries(props)) if (value !== null) store.set(id, key, value);
  return store;
}

export function node(id: number, labels: string[] = [], props: Record<string, Value> = {}): Node {
  return new Node(id, labels, storeWith(id, props));
}

export function rel(id: number, type: string, start: Node, end: Node, props: Record<string, Value> = {}): Rel {
  return new Rel(id, type, 0, start, end, storeWith(id, props));
}

export function path(nodes: Node[], rels: Rel[]): Path {
  return new Path(nodes, rels);
}

export function map(o: Record<string, Value>): Map<string, Value> {
  return new Map(Object.entries(o));
}
