/**
 * The bytes of the ONNX model used by the ONNX PageRank path: one MatMul, `y = x · M`, over
 * doubles with symbolic dimensions, so a single model serves every graph size. The model is
 * written here with a minimal protobuf encoder (only the ModelProto fields it needs), so
 * nothing outside onnxruntime-node is needed at run time. Field numbers follow onnx.proto.
 */

const DOUBLE = 11; // TensorProto.DataType.DOUBLE
const IR_VERSION = 8;
const OPSET = 13;

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** A varint field (wire type 0). */
function intField(field: number, value: number): number[] {
  return [...varint(field << 3), ...varint(value)];
}

/** A length-delimited field (wire type 2): a string or an embedded message. */
function bytesField(field: number, body: number[] | string): number[] {
  const bytes = typeof body === 'string' ? [...Buffer.from(body, 'utf8')] : body;
  return [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
}

/** ValueInfoProto of a double tensor whose dimensions are all symbolic. */
function tensorInfo(name: string, dims: readonly string[]): number[] {
  const shape = dims.flatMap((d) => bytesField(1, bytesField(2, d))); // TensorShapeProto.dim { dim_param }
  const tensorType = [...intField(1, DOUBLE), ...bytesField(2, shape)]; // TypeProto.Tensor
  return [...bytesField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

/** The serialised model: inputs `x` [1, n] and `m` [n, n], output `y` [1, n]. */
export function matMulModel(): Uint8Array {
  const node = [...bytesField(1, 'x'), ...bytesField(1, 'm'), ...bytesField(2, 'y'), ...bytesField(3, 'step'), ...bytesField(4, 'MatMul')];
  const graph = [
    ...bytesField(1, node),
    ...bytesField(2, 'pagerank_step'),
    ...bytesField(11, tensorInfo('x', ['one', 'n'])),
    ...bytesField(11, tensorInfo('m', ['n', 'n'])),
    ...bytesField(12, tensorInfo('y', ['one', 'n'])),
  ];
  const opset = [...bytesField(1, ''), ...intField(2, OPSET)];
  return Uint8Array.from([...intField(1, IR_VERSION), ...bytesField(2, 'graphdb'), ...bytesField(7, graph), ...bytesField(8, opset)]);
}
