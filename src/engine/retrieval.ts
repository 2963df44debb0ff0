/**
 * Plugs the retrieval subsystems into a database: vector indexes (src/vector/), full-text
 * indexes (src/fulltext/) and embeddings (src/embed/) register their index kinds with the
 * schema and their procedures with the registry; the embedding service is handed to query
 * contexts for `genai.vector.encode`.
 */

import type { ProcedureRegistry } from '../../procedures/registry.js';
import type { EmbeddingProvider } from '../../functions/types.js';
import type { Schema } from '../store/schema.js';
import type { DatabaseOptions } from './types.js';
import { registerVectorProcedures } from '../vector/procedures.js';
import { registerFulltextProcedures } from '../fulltext/procedures.js';
import { EmbeddingService } from '../embed/embedder.js';
import { OnnxEmbedder } from '../embed/onnx-embedder.js';
import { embeddingProvider, registerEmbeddingProcedures } from '../embed/functions.js';

export interface Retrieval {
  embedding: EmbeddingProvider;
  close(): void;
}

export function registerRetrieval(registry: ProcedureRegistry, schema: Schema, options: DatabaseOptions): Retrieval {
  registerVectorProcedures(registry, schema);
  registerFulltextProcedures(registry, schema);
  const service = new EmbeddingService(options.embeddingModel, (dir) => new OnnxEmbedder(dir));
  registerEmbeddingProcedures(registry, service);
  return { embedding: embeddingProvider(service), close: () => service.close() };
}
