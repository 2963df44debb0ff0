/**
 * The full-text procedures, under Neo4j 5's names: `db.index.fulltext.queryNodes` /
 * `queryRelationships` (Lucene query text, BM25 scores, best first; options `skip` and
 * `limit`) and `db.index.fulltext.listAvailableAnalyzers`; plus reading `CREATE FULLTEXT
 * INDEX` settings into an index definition.
 */

import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import type { Schema, ExtensionIndexDef } from '../store/schema.js';
import { ArgumentError, ProcedureError, QuerySemanticError, ValueTypeError } from '../errors.js';
import type { OptionValue } from '../engine/index-options.js';
import { ANALYZERS, analyzer } from './analyzers.js';
import { FULLTEXT_INDEX_TYPE, FulltextIndex } from './fulltext-index.js';
import { parseFulltextQuery } from './query-parser.js';
import type { VectorStorage } from '../vector/hnsw-index.js';

/** A full-text index definition from CREATE FULLTEXT INDEX's parts and its indexConfig. */
export function fulltextDefinition(
  name: string,
  entity: 'node' | 'relationship',
  labelsOrTypes: string[],
  properties: string[],
  config: Record<string, OptionValue>,
): ExtensionIndexDef {
  for (const key of Object.keys(config)) {
    if (key !== 'fulltext.analyzer' && key !== 'fulltext.eventually_consistent') {
      throw new QuerySemanticError(`Unknown full-text index setting \`${key}\``, 'InvalidIndexOptions');
    }
  }
  const name0 = config['fulltext.analyzer'] ?? 'standard';
  if (typeof name0 !== 'string') throw new QuerySemanticError('`fulltext.analyzer` must be a string', 'InvalidIndexOptions');
  const chosen = analyzer(name0).name;
  if (labelsOrTypes.length === 0 || labelsOrTypes.some((l) => l === '')) {
    throw new QuerySemanticError('A full-text index needs at least one label or relationship type', 'InvalidIndexDefinition');
  }
  if (properties.length === 0) throw new QuerySemanticError('A full-text index needs at least one property', 'InvalidIndexDefinition');
  return { type: FULLTEXT_INDEX_TYPE, name, entity, labelsOrTypes, properties, options: { 'fulltext.analyzer': chosen } };
}

function requireIndex(schema: Schema, name: Value, entity: 'node' | 'relationship'): FulltextIndex {
  if (typeof name !== 'string') throw new ValueTypeError('The index name must be a string', 'InvalidArgumentType');
  const idx = schema.extensionIndex(name);
  if (!(idx instanceof FulltextIndex)) throw new ProcedureError(`There is no full-text index called \`${name}\``, 'IndexNotFound', 'runtime');
  if (idx.entity !== entity) throw new ProcedureError(`Full-text index \`${name}\` indexes ${idx.entity}s, not ${entity}s`, 'IndexEntityMismatch', 'runtime');
  return idx;
}

function paging(options: Value): { skip: number; limit: number } {
  let skip = 0;
  let limit = Number.POSITIVE_INFINITY;
  if (options instanceof Map) {
    for (const [k, v] of options) {
      if (k !== 'skip' && k !== 'limit' && k !== 'analyzer') throw new ArgumentError(`Unknown full-text query option '${k}'`, 'InvalidArgumentValue');
      if (k === 'analyzer') continue;
      // A whole float counts (a JavaScript driver sends every number as one, as LangChain's `{limit: $k}`).
      const n = v instanceof FloatBox ? v.value : v;
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new ArgumentError(`Option '${k}' must be a non-negative integer`, 'InvalidArgumentValue');
      if (k === 'skip') skip = n;
      else limit = n;
    }
  } else if (options !== null) {
    throw new ValueTypeError('The options must be a map', 'InvalidArgumentType');
  }
  return { skip, limit };
}

function queryProcedure(schema: Schema, entity: 'node' | 'relationship'): ProcedureDef {
  const output = entity === 'node' ? 'node' : 'relationship';
  return {
    name: entity === 'node' ? 'db.index.fulltext.queryNodes' : 'db.index.fulltext.queryRelationships',
    inputs: [
      { name: 'indexName', type: 'STRING?' },
      { name: 'queryString', type: 'STRING?' },
      { name: 'options', type: 'MAP?', default: new Map() },
    ],
    outputs: [
      { name: output, type: entity === 'node' ? 'NODE?' : 'RELATIONSHIP?' },
      { name: 'score', type: 'FLOAT?' },
    ],
    mode: 'read',
    description: `${entity === 'node' ? 'Nodes' : 'Relationships'} matching a Lucene-syntax query in a full-text index, best BM25 score first.`,
    invoke(ctx: ProcedureContext, [name, text, options]) {
      const index = requireIndex(schema, name, entity);
      if (typeof text !== 'string') throw new ValueTypeError('The query must be a string', 'InvalidArgumentType');
      const { skip, limit } = paging(options);
      const scores = index.search(parseFulltextQuery(text), () => ctx.checkDeadline());
      ctx.checkDeadline();
      const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(skip, skip + limit);
      const rows: Value[][] = [];
      for (const [id, score] of ranked) {
        const e = entity === 'node' ? ctx.graph.nodeAt(id) : ctx.graph.relAt(id);
        if (e && !e.deleted) rows.push([e, Number.isInteger(score) ? new FloatBox(score) : score]);
      }
      return rows;
    },
  };
}

export { FulltextIndex };

/** A full-text index of `def`, keeping its files where `storage` says (once it says): the schema's factory of the kind. */
export function fulltextIndexOf(def: ExtensionIndexDef, storage: VectorStorage): FulltextIndex {
  return new FulltextIndex(def, storage);
}

/** Registers the full-text procedures (src/engine/retrieval.ts registers the index kind, fulltextIndexOf). */
export function registerFulltextProcedures(registry: ProcedureRegistry, schema: Schema): void {
  registry.register(queryProcedure(schema, 'node'));
  registry.register(queryProcedure(schema, 'relationship'));
  registry.register({
    name: 'db.index.fulltext.listAvailableAnalyzers',
    inputs: [],
    outputs: [
      { name: 'analyzer', type: 'STRING?' },
      { name: 'description', type: 'STRING?' },
      { name: 'stopwords', type: 'LIST? OF STRING?' },
    ],
    mode: 'read',
    description: 'The analyzers a full-text index can use (`fulltext.analyzer`).',
    invoke: () => ANALYZERS.map((a) => [a.name, a.description, [...a.stopwords]]),
  });
}
