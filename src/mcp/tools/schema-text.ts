/**
 * get_schema's text (SPEC "MCP get_schema result"), lines in this order:
 *
 *   Labels: Movie, Person
 *   Relationship types: ACTED_IN
 *   Property keys: name, title
 *   Indexes: person_name ON :Person(name)
 *   Constraints: (none)
 *   Nodes: 3, Relationships: 2
 *   Schema detail:
 *   :Person (2 nodes): name
 *   :Movie (1 nodes): title
 *
 * An empty list reads `(none)`. Per-label property names come from a scan of that label's
 * nodes (the first 100,000 of them on very large labels, marked "sampled").
 */

import type { Graph } from '../../store/graph.js';
import type { Schema } from '../../store/schema.js';

const SAMPLE = 100_000;

function list(items: readonly string[]): string {
  return items.length > 0 ? items.join(', ') : '(none)';
}

function labelDetail(graph: Graph, label: string): string {
  const set = graph.labelSet(label);
  const count = graph.labelCount(label);
  const keys = new Set<string>();
  const scanned = Math.min(set?.length ?? 0, SAMPLE);
  for (let i = 0; i < scanned; i++) {
    const node = graph.node(set!.ids[i]);
    if (node) for (const key of node.propKeys()) keys.add(key);
  }
  const sampled = count > SAMPLE ? ` (sampled from ${SAMPLE} nodes)` : '';
  return `:${label} (${count} nodes): ${list([...keys].sort())}${sampled}`;
}

function indexLines(schema: Schema): string[] {
  return schema.listIndexes().map((i) => `${i.name} ON :${i.label}(${i.key})${i.owner !== undefined ? ` (backs ${i.owner})` : ''}`);
}

function constraintLines(schema: Schema): string[] {
  return schema
    .listConstraints()
    .map((c) => `${c.name} ON :${c.label}(${c.key}) ${c.kind === 'unique' ? 'IS UNIQUE' : 'IS NOT NULL'}`);
}

export function schemaText(graph: Graph, schema: Schema): string {
  const labels = graph.labels();
  const lines = [
    `Labels: ${list(labels)}`,
    `Relationship types: ${list(graph.relationshipTypes())}`,
    `Property keys: ${list(graph.propertyKeys())}`,
    `Indexes: ${list(indexLines(schema))}`,
    `Constraints: ${list(constraintLines(schema))}`,
    `Nodes: ${graph.nodeCount}, Relationships: ${graph.relCount}`,
    'Schema detail:',
    ...labels.map((label) => labelDetail(graph, label)),
  ];
  return lines.join('\n');
}
