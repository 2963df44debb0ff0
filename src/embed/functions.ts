/**
 * Embeddings inside queries, under Neo4j's GenAI names: the function
 * `genai.vector.encode(resource [, provider [, configuration]])`, the procedure
 * `genai.vector.encodeBatch(resources [, provider [, configuration]]) YIELD index, resource,
 * vector`, and ours: `graphdb.embed.nodes({label, textProperty, vectorProperty, batchSize,
 * provider, configuration, progress})`, which writes the embedding of a text property of every
 * matching node into a vector property through the normal write path, in batches (with
 * `progress: true`, yielding a row per batch: nodes done of `total`), and
 * `graphdb.embed.info()`, which names the default embedder and where it runs.
 */

import { isMainThread } from 'node:worker_threads';
import { withContext } from '../../functions/define.js';
import type { EmbeddingProvider, FunctionDef } from '../../functions/types.js';
import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { Value } from '../../runtime/values.js';
import { describe } from '../../runtime/types.js';
import { ArgumentError, GraphDbError, ProcedureError, ValueTypeError } from '../errors.js';
import { PRIMARY_ONLY } from '../engine/workers/protocol.js';
import { Node } from '../store/entities.js';
import { vectorToList } from '../vector/vectors.js';
import type { Embedder, EmbeddingService } from './embedder.js';

function providerArg(v: Value): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string') throw new ValueTypeError(`The embedding provider must be a string, got ${describe(v)}`, 'InvalidArgumentType');
  return v;
}

function configArg(v: Value): ReadonlyMap<string, unknown> | null {
  if (v === null || v === undefined) return null;
  if (!(v instanceof Map)) throw new ValueTypeError(`The embedding configuration must be a map, got ${describe(v)}`, 'InvalidArgumentType');
  return v;
}

/** The EmbeddingProvider a query context carries, backed by the database's service. */
export function embeddingProvider(service: EmbeddingService): EmbeddingProvider {
  return { encode: (texts, provider, config) => service.resolve(provider, config).embed(texts) };
}

export const embeddingFunctions: FunctionDef[] = [
  withContext(
    'genai.vector.encode',
    'vector',
    [1, 3],
    'The embedding of a text as a list of floats (provider: default, hash or onnx).',
    (ctx, resource = null, provider = null, config = null) => {
      if (resource === null) return null;
      if (typeof resource !== 'string') throw new ValueTypeError(`genai.vector.encode() expects a string, got ${describe(resource)}`, 'InvalidArgumentType');
      if (!ctx.embedding) throw new ArgumentError('This database has no embedder', 'UnknownEmbeddingProvider');
      return vectorToList(ctx.embedding.encode([resource], providerArg(provider), configArg(config))[0]);
    },
  ),
];

const DEFAULT_BATCH = 64;

/**
 * The embedder of a `graphdb.embed.nodes` call. The procedure runs on a query worker as a write
 * (its commit comes back for the primary to apply), and the worker's Database has the primary's
 * embedding settings (`--embedding-model` travels in the worker options), so it embeds exactly
 * as the primary would. An embedder that cannot be loaded there (a model the worker's thread
 * cannot open) sends the query back to the primary (`PrimaryOnly`) instead of failing it: the
 * primary loads it, or reports why it cannot. On the main thread the load error is the caller's.
 */
function nodesEmbedder(service: EmbeddingService, provider: string | null, config: ReadonlyMap<string, unknown> | null): Embedder {
  try {
    return service.resolve(provider, config);
  } catch (err) {
    if (isMainThread || !(err instanceof GraphDbError) || err.detail !== 'InvalidEmbeddingModel') throw err;
    throw new ProcedureError(`graphdb.embed.nodes cannot load its embedder on this thread (${err.message}): it runs on the primary`, PRIMARY_ONLY, 'runtime');
  }
}

export function registerEmbeddingProcedures(registry: ProcedureRegistry, service: EmbeddingService): void {
  registry.register({
    name: 'genai.vector.encodeBatch',
    inputs: [
      { name: 'resources', type: 'LIST? OF STRING?' },
      { name: 'provider', type: 'STRING?', default: null },
      { name: 'configuration', type: 'MAP?', default: new Map() },
    ],
    outputs: [
      { name: 'index', type: 'INTEGER?' },
      { name: 'resource', type: 'STRING?' },
      { name: 'vector', type: 'LIST? OF FLOAT?' },
    ],
    mode: 'read',
    description: 'The embeddings of a list of texts, one row per text with its position.',
    invoke(ctx, [resources, provider, config]) {
      if (!Array.isArray(resources)) throw new ValueTypeError('genai.vector.encodeBatch() expects a list of strings', 'InvalidArgumentType');
      const embedder = service.resolve(providerArg(provider), configArg(config));
      const rows: Value[][] = [];
      for (let start = 0; start < resources.length; start += DEFAULT_BATCH) {
        ctx.checkDeadline();
        const chunk = resources.slice(start, start + DEFAULT_BATCH);
        const texts = chunk.map((r, i) => {
          if (typeof r !== 'string') throw new ValueTypeError(`genai.vector.encodeBatch() element ${start + i} is not a string`, 'InvalidArgumentType');
          return r;
        });
        embedder.embed(texts).forEach((v, i) => rows.push([start + i, texts[i], vectorToList(v)]));
      }
      return rows;
    },
  });

  registry.register({
    name: 'graphdb.embed.nodes',
    inputs: [{ name: 'config', type: 'MAP?' }],
    outputs: [
      { name: 'nodes', type: 'INTEGER?' },
      { name: 'batches', type: 'INTEGER?' },
      { name: 'dimensions', type: 'INTEGER?' },
      { name: 'embedder', type: 'STRING?' },
      { name: 'total', type: 'INTEGER?' },
    ],
    mode: 'write',
    description: 'Embeds a text property of every node with a label into a vector property, in batches, through the normal write path.',
    invoke(ctx, [config]) {
      if (!(config instanceof Map)) throw new ValueTypeError('graphdb.embed.nodes() expects a map {label, textProperty, vectorProperty}', 'InvalidArgumentType');
      const str = (key: string): string => {
        const v = config.get(key);
        if (typeof v !== 'string' || v === '') throw new ArgumentError(`graphdb.embed.nodes() needs \`${key}\`, a string`, 'InvalidArgumentValue');
        return v;
      };
      const label = str('label');
      const textProperty = str('textProperty');
      const vectorProperty = str('vectorProperty');
      for (const key of config.keys()) {
        if (!['label', 'textProperty', 'vectorProperty', 'batchSize', 'provider', 'configuration', 'progress'].includes(key)) {
          throw new ArgumentError(`graphdb.embed.nodes() has no setting \`${key}\``, 'InvalidArgumentValue');
        }
      }
      const size = config.get('batchSize') ?? DEFAULT_BATCH;
      if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw new ArgumentError('`batchSize` must be a positive integer', 'InvalidArgumentValue');
      const progress = config.get('progress') ?? false;
      if (typeof progress !== 'boolean') throw new ArgumentError('`progress` must be a boolean', 'InvalidArgumentValue');
      const embedder = nodesEmbedder(service, providerArg(config.get('provider') ?? null), configArg(config.get('configuration') ?? null));
      const set = ctx.graph.labelSet(label);
      // Snapshot the targets first: writing must not change what is iterated. In id order: a
      // replica's label set may list them in another, and a batch's make-up (its padding)
      // changes a model's output in the last bits.
      const ids = set === undefined ? new Int32Array(0) : set.ids.slice(0, set.length).sort();
      const targets: Node[] = [];
      for (const id of ids) {
        const n = ctx.graph.nodeAt(id);
        if (n instanceof Node && typeof n.prop(textProperty) === 'string') targets.push(n);
      }
      let batches = 0;
      const name = `${embedder.provider}:${embedder.model}`;
      // With `progress: true`, one row per batch: the nodes done so far out of `total`.
      const progressRows: Value[][] = [];
      for (let start = 0; start < targets.length; start += size) {
        ctx.checkDeadline();
        const chunk = targets.slice(start, start + size);
        const vectors = embedder.embed(chunk.map((n) => n.prop(textProperty) as string));
        chunk.forEach((n, i) => ctx.graph.setProperty(n, vectorProperty, vectorToList(vectors[i])));
        batches++;
        if (progress) progressRows.push([start + chunk.length, batches, embedder.dimensions, name, targets.length]);
      }
      return progress && progressRows.length > 0 ? progressRows : [[targets.length, batches, embedder.dimensions, name, targets.length]];
    },
  });

  registry.register({
    name: 'graphdb.embed.info',
    inputs: [],
    outputs: [
      { name: 'provider', type: 'STRING?' },
      { name: 'model', type: 'STRING?' },
      { name: 'dimensions', type: 'INTEGER?' },
      { name: 'executionProvider', type: 'STRING?' },
    ],
    mode: 'read',
    description: 'The default embedder: provider, model, vector size and where inference runs (js, cpu or cuda).',
    invoke() {
      const e = service.default;
      return [[e.provider, e.model, e.dimensions, e.executionProvider]];
    },
  });
}
