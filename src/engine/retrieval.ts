/**
 * Plugs the retrieval subsystems into a database: vector indexes (src/vector/), full-text
 * indexes (src/fulltext/) and embeddings (src/embed/) register their index kinds with the
 * schema and their procedures with the registry; the embedding service is handed to query
 * contexts for `genai.vector.encode`. On a data directory it also saves the vector and
 * full-text indexes at every checkpoint (in the background) and on close, so that the next
 * open loads them.
 */

import type { EmbeddingProvider } from '../../functions/types.js';
import type { Schema } from '../store/schema.js';
import type { DatabaseOptions } from './types.js';
import type { VectorIndex, VectorStorage } from '../vector/hnsw-index.js';
import type { FulltextIndex } from '../fulltext/fulltext-index.js';
import { ProcedureRegistry as Catalogue, type ProcedureDef } from '../../procedures/registry.js';
import { familySignatures, lazyProcedures } from '../../procedures/lazy-families.js';
import { VECTOR_INDEX_TYPE } from '../vector/config.js';
import { FULLTEXT_INDEX_TYPE } from '../fulltext/index-type.js';
import { fulltextBuildsRunning, fulltextCode, isFulltextIndex, isVectorIndex, vectorCode } from './retrieval-code.js';
import { EmbeddingService } from '../embed/embedder.js';
import { LazyModule } from '../lazy-module.js';
import { embeddingProvider, registerEmbeddingProcedures } from '../embed/functions.js';

/** Procedures that search full-text indexes, or wait for indexes to come online: their names in a query's text. */
const SEARCHES_FULLTEXT = /db\.index\.fulltext\.query|graphdb\.rag\.|db\.awaitIndex/i;

/** The ONNX embedder (its tokenizer library, its worker) loads on the first use of a model. */
const onnxEmbedder = new LazyModule(import.meta.url, '../embed/onnx-embedder.js', () => import('../embed/onnx-embedder.js'));

export interface Retrieval {
  embedding: EmbeddingProvider;
  /** Tells the indexes the data directory (before the store is opened and the indexes populated) and where to warn. */
  attachDataDir(dir: string, warn?: (message: string) => void): void;
  /** Saves every changed index, blocking until durable (close); the graph is at WAL sequence `seq` and no transaction is open. */
  saveIndexes(seq: number): void;
  /** The same with the slow parts off the event loop (checkpoints). */
  saveIndexesAsync(seq: number): Promise<void>;
  /**
   * For a query that searches full-text indexes (their query procedures, graph_rag) or waits
   * for indexes (db.awaitIndex, db.awaitIndexes) while one is built in the background: settles
   * when every such build has ended, so that the caller can wait with the event loop free. Otherwise undefined. (A query that does not wait is
   * right too: the search completes the build first, holding the thread meanwhile.)
   */
  fulltextBuilds(query: string): Promise<void> | undefined;
  /** Frees the embedders and stops background vector and full-text builds (the database is closing). */
  close(): void;
}

/** The indexes with files, each brought up to date with the graph (extensionIndex() does) before it is saved. */
function savable(schema: Schema): (VectorIndex | FulltextIndex)[] {
  const out: (VectorIndex | FulltextIndex)[] = [];
  for (const ext of schema.listExtensionIndexes()) {
    const index = schema.extensionIndex(ext.def.name);
    if (isVectorIndex(index) || isFulltextIndex(index)) out.push(index);
  }
  return out;
}

/** The procedures `register` defines over `schema`, by name, built on the first call (which loads their code). */
function once(register: () => (registry: Catalogue, schema: Schema) => void, schema: Schema): () => Map<string, ProcedureDef> {
  let byName: Map<string, ProcedureDef> | undefined;
  return () => {
    if (byName === undefined) {
      const catalogue = new Catalogue();
      register()(catalogue, schema);
      byName = new Map(catalogue.list().map((def) => [def.name, def]));
    }
    return byName;
  };
}

export function registerRetrieval(registry: Catalogue, schema: Schema, options: DatabaseOptions): Retrieval {
  const storage: VectorStorage = {};
  // The index code loads when the schema makes or loads an index of the kind, or a query calls or plans one of the procedures.
  schema.registerExtensionType(VECTOR_INDEX_TYPE, (def) => vectorCode.get().vectorIndexOf(def, storage));
  schema.registerExtensionType(FULLTEXT_INDEX_TYPE, (def) => fulltextCode.get().fulltextIndexOf(def, storage));
  const vector = once(() => vectorCode.get().registerVectorProcedures, schema);
  const fulltext = once(() => fulltextCode.get().registerFulltextProcedures, schema);
  registry.registerSource(() => [...lazyProcedures(familySignatures.get().VECTOR_SIGNATURES, vector), ...lazyProcedures(familySignatures.get().FULLTEXT_SIGNATURES, fulltext)]);
  const service = new EmbeddingService(options.embeddingModel, (dir) => new (onnxEmbedder.get().OnnxEmbedder)(dir));
  registerEmbeddingProcedures(registry, service);
  return {
    embedding: embeddingProvider(service),
    attachDataDir: (dir, warn) => {
      storage.dataDir = dir;
      storage.warn = warn;
    },
    saveIndexes: (seq) => {
      for (const index of savable(schema)) index.save(seq);
    },
    saveIndexesAsync: async (seq) => {
      for (const index of savable(schema)) await index.saveAsync(seq);
    },
    fulltextBuilds: (query) => {
      if (fulltextBuildsRunning() === 0) return undefined; // every query passes here: nothing to look for
      let builds: Promise<void>[] | undefined;
      for (const index of schema.listExtensionIndexes()) {
        const ended = isFulltextIndex(index) ? index.whenPopulated() : undefined;
        if (ended !== undefined) (builds ??= []).push(ended);
      }
      if (builds === undefined || !SEARCHES_FULLTEXT.test(query)) return undefined;
      return Promise.all(builds).then(() => undefined);
    },
    close: () => {
      // A background build over a closed database would go on for nothing.
      for (const index of savable(schema)) index.stopPopulation();
      service.close();
    },
  };
}
