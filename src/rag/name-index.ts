/**
 * graph_rag's name index: node ids by the normalised form (`nameKey`) of their `name` and
 * `title`, so the `name` seed source answers a question with one lookup per word sequence of
 * the question instead of a scan of every node.
 *
 * It follows the schema's change feed (`Schema.observe`): every node a write, a rollback or a
 * replayed record touches is re-indexed from its current state before the index is read, the
 * way property and vector indexes follow writes. It is built on first use per schema (a
 * database that never asks graph_rag a question pays nothing) and rebuilt when the graph's
 * node array is replaced wholesale (`Graph.clear()`, a bulk load), which touches no node.
 * It is not part of the schema: not listed, not persisted — rebuilding it is one pass.
 */

import type { Node } from '../store/entities.js';
import type { Graph } from '../store/graph.js';
import type { ChangeObserver, Schema } from '../store/schema.js';
import { MAX_QUOTED_NAME_WORDS, nameKey } from './question.js';

/** The properties that name a node, in the order a match reports them. */
export const NAME_KEYS = ['name', 'title'] as const;
export type NameKey = (typeof NAME_KEYS)[number];
/** Longer values are descriptions, not names: never indexed, never matched. */
export const MAX_NAME_CHARS = 200;

/** The normalised name of one property value, or undefined when it cannot name a node. */
export function indexableName(v: unknown): string | undefined {
  if (typeof v !== 'string' || v.length > MAX_NAME_CHARS) return undefined;
  const key = nameKey(v);
  if (key === '') return undefined;
  // A question names at most MAX_QUOTED_NAME_WORDS words as one name (quoted; unquoted, six): a longer name can never match.
  let words = 1;
  for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 32 && ++words > MAX_QUOTED_NAME_WORDS) return undefined;
  return key;
}

export class NameIndex implements ChangeObserver {
  private readonly byKey = new Map<string, Set<number>>();
  /** What each indexed node is filed under (one key, or two when name and title differ). */
  private readonly keysOf = new Map<number, string | [string, string]>();
  /** The graph's node array the index was built over: a new one means a wholesale change. */
  private builtOver: unknown;

  constructor(private readonly graph: Graph) {
    this.build();
  }

  private build(): void {
    this.byKey.clear();
    this.keysOf.clear();
    const g = this.graph;
    this.builtOver = g.nodes;
    // By id from the property columns: a bulk-loaded node's object is not made just to read its name.
    for (let id = 0; id < g.nodes.length; id++) if (g.hasLiveNode(id)) this.file(id, g.nodeProps.get(id, 'name'), g.nodeProps.get(id, 'title'));
  }

  get size(): number {
    return this.keysOf.size;
  }

  private file(id: number, name: unknown, title: unknown): void {
    const a = indexableName(name);
    const b = indexableName(title);
    const keys = a !== undefined && b !== undefined && a !== b ? ([a, b] as [string, string]) : (a ?? b);
    if (keys === undefined) return;
    this.keysOf.set(id, keys);
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      let ids = this.byKey.get(key);
      if (!ids) this.byKey.set(key, (ids = new Set()));
      ids.add(id);
    }
  }

  private removeId(id: number): void {
    const keys = this.keysOf.get(id);
    if (keys === undefined) return;
    this.keysOf.delete(id);
    for (const key of typeof keys === 'string' ? [keys] : keys) {
      const ids = this.byKey.get(key);
      ids?.delete(id);
      if (ids?.size === 0) this.byKey.delete(key);
    }
  }

  /** Re-files one node from its current state (deleted, renamed, or restored by a rollback). */
  updateNode(node: Node): void {
    if (this.builtOver !== this.graph.nodes) return;
    this.removeId(node.id);
    if (!node.deleted) this.file(node.id, node.prop('name'), node.prop('title'));
  }

  /** Ids of nodes whose name or title normalises to `key`; the caller checks liveness. */
  lookup(key: string): ReadonlySet<number> | undefined {
    if (this.builtOver !== this.graph.nodes) this.build();
    return this.byKey.get(key);
  }
}

const bySchema = new WeakMap<Schema, NameIndex>();

/**
 * The name index of `graph`, current with every change so far. With a schema it is kept and
 * maintained from the schema's change feed; without one (a bare graph) it is built for this
 * call only.
 */
export function nameIndexFor(graph: Graph, schema: Schema | undefined): NameIndex {
  if (!schema) return new NameIndex(graph);
  let index = bySchema.get(schema);
  if (!index) {
    // The build reads the graph as it is now, so the earlier changes observe() drains are already in it.
    const created = new NameIndex(graph);
    schema.observe(created);
    bySchema.set(schema, (index = created));
  } else {
    schema.refresh();
  }
  return index;
}
