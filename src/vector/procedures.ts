/**
 * The vector procedures, under Neo4j 5's names: `db.index.vector.queryNodes` /
 * `queryRelationships` (top-k search, `YIELD … WHERE` applied inside the search),
 * `db.create.setNodeVectorProperty` / `setRelationshipVectorProperty` (a checked write of a
 * float list) and `db.index.vector.createNodeIndex` / `createRelationshipIndex` (the
 * procedural form of CREATE VECTOR INDEX). They reach the indexes through the schema.
 */

import type { ProcedureContext, ProcedureDef, ProcedureRegistry } from '../../procedures/registry.js';
import { FloatBox, type Value } from '../../runtime/values.js';
import { Node, Rel } from '../store/entities.js';
import type { ExtensionIndexDef, Schema } from '../store/schema.js';
import { ArgumentError, ProcedureError, ValueTypeError } from '../errors.js';
import { VectorIndex, type VectorStorage } from './hnsw-index.js';
import { describeStrategy, topK } from './search.js';
import { requireQueryVector, requireVector, vectorToList } from './vectors.js';
import { vectorConfigFrom, vectorDefinition } from './config.js';

/** The vector index called `name` on `entity`s, up to date with the transaction, or a ProcedureError. */
function isZeroVector(v: ArrayLike<number>): boolean {
  for (let i = 0; i < v.length; i++) if (v[i] !== 0) return false;
  return true;
}

export function requireVectorIndex(schema: Schema, name: Value, entity: 'node' | 'relationship'): VectorIndex {
  if (typeof name !== 'string') throw new ValueTypeError('The index name must be a string', 'InvalidArgumentType');
  const idx = schema.extensionIndex(name);
  if (!(idx instanceof VectorIndex)) {
    throw new ProcedureError(`There is no vector index called \`${name}\``, 'IndexNotFound', 'runtime');
  }
  if (idx.entity !== entity) {
    throw new ProcedureError(`Vector index \`${name}\` indexes ${idx.entity}s, not ${entity}s`, 'IndexEntityMismatch', 'runtime');
  }
  return idx;
}

/** The vector index a literal name names, as it is (planning: no refresh, no error). */
function plannedIndex(schema: Schema, name: unknown, entity: 'node' | 'relationship'): VectorIndex | undefined {
  const index = schema.listExtensionIndexes().find((e) => e.def.name === name);
  return index instanceof VectorIndex && index.entity === entity ? index : undefined;
}

function positiveK(v: Value): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new ArgumentError(`The number of nearest neighbours must be a positive integer, got ${String(v)}`, 'InvalidArgumentValue');
  }
  return v;
}

/** Largest per-query ef: the same bound as `vector.hnsw.ef_search`. */
const MAX_EF = 10_000;

/**
 * The `ef` of queryNodes' options map, if given: one query's search breadth, replacing the
 * index's `vector.hnsw.ef_search` (to trade speed for recall per query, or to measure the
 * curve without rebuilding the index).
 */
function searchEf(options: Value): number | undefined {
  if (options === null) return undefined;
  if (!(options instanceof Map)) throw new ValueTypeError('The options must be a map', 'InvalidArgumentType');
  let ef: number | undefined;
  for (const [key, v] of options) {
    if (key !== 'ef') throw new ArgumentError(`Unknown vector query option '${key}'`, 'InvalidArgumentValue');
    if (v === null) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_EF) {
      throw new ArgumentError(`Option 'ef' must be an integer from 1 to ${MAX_EF}, got ${String(v)}`, 'InvalidArgumentValue');
    }
    ef = v;
  }
  return ef;
}

function queryProcedure(schema: Schema, entity: 'node' | 'relationship'): ProcedureDef {
  const output = entity === 'node' ? 'node' : 'relationship';
  return {
    name: entity === 'node' ? 'db.index.vector.queryNodes' : 'db.index.vector.queryRelationships',
    inputs: [
      { name: 'indexName', type: 'STRING?' },
      { name: 'numberOfNearestNeighbours', type: 'INTEGER?' },
      { name: 'query', type: 'ANY?' },
      { name: 'options', type: 'MAP?', default: new Map() },
    ],
    outputs: [
      { name: output, type: entity === 'node' ? 'NODE?' : 'RELATIONSHIP?' },
      { name: 'score', type: 'FLOAT?' },
    ],
    mode: 'read',
    acceptsRowFilter: true,
    rowFilterSubject([name]) {
      const index = plannedIndex(schema, name, entity);
      return index && { output, entity, label: index.label };
    },
    describeRowFilter([name, k], selectivity) {
      const index = plannedIndex(schema, name, entity);
      return describeStrategy(index?.size, typeof k === 'bigint' ? Number(k) : undefined, selectivity, index?.baseEf);
    },
    description: `The k ${entity}s nearest to a query vector in a vector index, best first, with similarity scores in [0, 1]; options {ef} sets this search's ef (default: the index's \`vector.hnsw.ef_search\`).`,
    invoke(ctx: ProcedureContext, [name, k, query, options]) {
      const index = requireVectorIndex(schema, name, entity);
      const count = positiveK(k);
      const vector = requireQueryVector(query, 'The query vector', index.config.dimensions);
      if (index.config.similarity === 'cosine' && isZeroVector(vector)) {
        throw new ArgumentError('The query vector is a zero vector: it has no direction, so its cosine similarity to anything is undefined', 'InvalidVectorValue');
      }
      const ef = searchEf(options) ?? index.baseEf;
      const run = topK(
        index,
        vector,
        count,
        (hit) => {
          const e = entity === 'node' ? ctx.graph.nodeAt(hit.id) : ctx.graph.relAt(hit.id);
          return e && !e.deleted ? [e, Number.isInteger(hit.score) ? new FloatBox(hit.score) : hit.score] : null;
        },
        ctx.rowFilter,
        ctx.filterSelectivity ?? 0.5,
        () => ctx.checkDeadline(),
        ef,
      );
      return run.rows;
    },
  };
}

function setVectorProcedure(schema: Schema, entity: 'node' | 'relationship'): ProcedureDef {
  return {
    name: entity === 'node' ? 'db.create.setNodeVectorProperty' : 'db.create.setRelationshipVectorProperty',
    inputs: [
      { name: entity, type: entity === 'node' ? 'NODE?' : 'RELATIONSHIP?' },
      { name: 'key', type: 'STRING?' },
      { name: 'vector', type: 'ANY?' },
    ],
    outputs: [],
    mode: 'write',
    description: `Sets a ${entity} property to a vector (a list of floats), checking it is a list of finite numbers.`,
    invoke(ctx: ProcedureContext, [target, key, vector]) {
      const expected = entity === 'node' ? Node : Rel;
      if (!(target instanceof expected)) throw new ValueTypeError(`The first argument must be a ${entity}`, 'InvalidArgumentType');
      if (typeof key !== 'string') throw new ValueTypeError('The property key must be a string', 'InvalidArgumentType');
      // An index on this property fixes the dimension the vector must have.
      let dims: number | undefined;
      for (const ext of schema.listExtensionIndexes()) {
        if (ext instanceof VectorIndex && ext.entity === entity && ext.key === key) {
          const owner = target instanceof Node ? target.labels.includes(ext.label) : (target as Rel).type === ext.label;
          if (owner) dims = ext.config.dimensions;
        }
      }
      ctx.graph.setProperty(target, key, vectorToList(requireVector(vector, 'The vector', dims)));
      return [];
    },
  };
}

/**
 * Neo4j 5.11's `db.create.setVectorProperty` (deprecated there, still what LangChain's
 * Neo4jVector calls): the node form that yields the node it set.
 */
function setVectorYieldingNode(set: ProcedureDef): ProcedureDef {
  return {
    ...set,
    name: 'db.create.setVectorProperty',
    outputs: [{ name: 'node', type: 'NODE?' }],
    description: 'Sets a node property to a vector and yields the node (the older form of db.create.setNodeVectorProperty).',
    invoke(ctx, args) {
      // Drained, so the write happens whatever the iterable's kind.
      Array.from(set.invoke(ctx, args));
      return [[args[0]]];
    },
  };
}

function createIndexProcedure(schema: Schema, entity: 'node' | 'relationship'): ProcedureDef {
  return {
    name: entity === 'node' ? 'db.index.vector.createNodeIndex' : 'db.index.vector.createRelationshipIndex',
    inputs: [
      { name: 'indexName', type: 'STRING?' },
      { name: entity === 'node' ? 'label' : 'relationshipType', type: 'STRING?' },
      { name: 'propertyKey', type: 'STRING?' },
      { name: 'vectorDimension', type: 'INTEGER?' },
      { name: 'vectorSimilarityFunction', type: 'STRING?' },
    ],
    outputs: [],
    mode: 'write',
    access: 'admin',
    description: `Creates a vector index on ${entity}s (the procedural form of CREATE VECTOR INDEX).`,
    invoke(_ctx, [name, label, key, dims, fn]) {
      if (typeof name !== 'string' || typeof label !== 'string' || typeof key !== 'string') {
        throw new ValueTypeError('The index name, label and property key must be strings', 'InvalidArgumentType');
      }
      const config = vectorConfigFrom({
        'vector.dimensions': typeof dims === 'number' ? dims : null,
        'vector.similarity_function': typeof fn === 'string' ? fn : null,
      });
      schema.createExtensionIndex(vectorDefinition(name, entity, label, key, config), false);
      return [];
    },
  };
}

export { VectorIndex };

/** A vector index of `def`, keeping its files where `storage` says (once it says): the schema's factory of the kind. */
export function vectorIndexOf(def: ExtensionIndexDef, storage: VectorStorage): VectorIndex {
  return new VectorIndex(def, vectorConfigFrom(def.options), storage);
}

/** Registers the vector procedures (src/engine/retrieval.ts registers the index kind, vectorIndexOf). */
export function registerVectorProcedures(registry: ProcedureRegistry, schema: Schema): void {
  for (const entity of ['node', 'relationship'] as const) {
    registry.register(queryProcedure(schema, entity));
    registry.register(setVectorProcedure(schema, entity));
    if (entity === 'node') registry.register(setVectorYieldingNode(setVectorProcedure(schema, entity)));
    registry.register(createIndexProcedure(schema, entity));
  }
}
