/**
 * Plugs the retrieval subsystems into a database: vector indexes (src/vector/), full-text
 * indexes (src/fulltext/) and embeddings (src/embed/) register their index kinds with the
 * schema and their procedures with the registry; the embedding service is handed to query
 * contexts for `genai.vector.encode`. On a data directory it also saves the vector indexes'
 * HNSW graphs at checkpoints and on close, so that the next open loads them.
 */

import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { EmbeddingProvider } from '../../functions/types.js';
import type { Schema } from '../store/schema.js';
import type { DatabaseOptions } from './types.js';
import { registerVectorProcedures } from '../vector/procedures.js';
import { VectorIndex, type VectorStorage } from '../vector/hnsw-index.js';
import { registerFulltextProcedures } from '../fulltext/procedures.js';
import { EmbeddingService } from '../embed/embedder.js';
import { OnnxEmbedder } from '../embed/onnx-embedder.js';
import { embeddingProvider, registerEmbeddingProcedures } from '../embed/functions.js';

export interface Retrieval {
  embedding: EmbeddingProvider;
  /** Tells the indexes the data directory (before the store is opened and the indexes populated). */
  attachDataDir(dir: string): void;
  /** Saves every changed vector index; the graph is at WAL sequence `seq` and no transaction is open. */
  saveIndexes(seq: number): void;
  close(): void;
}

export function registerRetrieval(registry: ProcedureRegistry, schema: Schema, options: DatabaseOptions): Retrieval {
  const storage: VectorStorage = {};
  registerVectorProcedures(registry, schema, storage);
  registerFulltextProcedures(registry, schema);
  const service = new EmbeddingService(options.embeddingModel, (dir) => new OnnxEmbedder(dir));
  registerEmbeddingProcedures(registry, service);
  return {
    embedding: embeddingProvider(service),
    attachDataDir: (dir) => void (storage.dataDir = dir),
    saveIndexes: (seq) => {
      for (const ext of schema.listExtensionIndexes()) {
        // extensionIndex() brings the index up to date with the graph before it is written.
        const index = schema.extensionIndex(ext.def.name);
        if (index instanceof VectorIndex) index.save(seq);
      }
    },
    close: () => service.close(),
  };
}
