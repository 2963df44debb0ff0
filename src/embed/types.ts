/** The shape every embedder has (the built-in hashing one, ONNX models). */

export interface Embedder {
  /** The provider name queries use (`hash`, `onnx`). */
  readonly provider: string;
  readonly model: string;
  readonly dimensions: number;
  /** Where inference runs: `js`, `cpu`, `cuda`. */
  readonly executionProvider: string;
  embed(texts: readonly string[]): Float32Array[];
}
