/**
 * A minimal WebAssembly binary encoder: just what the hand-written kernels in this folder
 * need (one imported memory, shared or not, functions over i32, i64 and f64, structured
 * control flow, loads and stores, atomic loads, compare-and-swaps and an add), written out as the bytes of the
 * binary format. The kernels are the product and are written instruction by instruction with the helpers below; the module is built in
 * memory and compiled synchronously at first use, so there is no build step, no text format
 * to assemble and no dependency (see docs/ARCHITECTURE.md, "WebAssembly kernels").
 *
 * Instructions are plain byte arrays: `I.localGet(3)` is `[0x20, 3]`, and a function body is
 * their concatenation. Only fixed bytes and numbers go into a module; nothing from a query.
 */

export type Bytes = readonly number[];

/** Unsigned LEB128. */
export function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 of a 32-bit integer. */
export function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** Value types. */
export const i32 = 0x7f;
export const i64 = 0x7e;
export const f64 = 0x7c;
export type ValueType = typeof i32 | typeof i64 | typeof f64;

/** A block's result type when it has none. */
const EMPTY = 0x40;

/** Alignment exponents of the natural alignments, for memargs. */
const ALIGN_4 = 2;
const ALIGN_8 = 3;

/** The instructions the kernels use, each as its bytes. */
export const I = {
  block: (): Bytes => [0x02, EMPTY],
  loop: (): Bytes => [0x03, EMPTY],
  if: (): Bytes => [0x04, EMPTY],
  else: (): Bytes => [0x05],
  end: (): Bytes => [0x0b],
  br: (depth: number): Bytes => [0x0c, ...uleb(depth)],
  brIf: (depth: number): Bytes => [0x0d, ...uleb(depth)],
  return: (): Bytes => [0x0f],
  call: (fn: number): Bytes => [0x10, ...uleb(fn)],
  drop: (): Bytes => [0x1a],
  select: (): Bytes => [0x1b],
  localGet: (i: number): Bytes => [0x20, ...uleb(i)],
  localSet: (i: number): Bytes => [0x21, ...uleb(i)],
  localTee: (i: number): Bytes => [0x22, ...uleb(i)],
  i32Load: (offset = 0): Bytes => [0x28, ALIGN_4, ...uleb(offset)],
  i32Load8u: (offset = 0): Bytes => [0x2d, 0, ...uleb(offset)],
  f64Load: (offset = 0): Bytes => [0x2b, ALIGN_8, ...uleb(offset)],
  i32Store: (offset = 0): Bytes => [0x36, ALIGN_4, ...uleb(offset)],
  i32Store8: (offset = 0): Bytes => [0x3a, 0, ...uleb(offset)],
  f64Store: (offset = 0): Bytes => [0x39, ALIGN_8, ...uleb(offset)],
  /** The threads proposal's compare-and-swap (address, expected, replacement → the old value); shared memories only. */
  i32AtomicCmpxchg: (offset = 0): Bytes => [0xfe, 0x48, ALIGN_4, ...uleb(offset)],
  /** The threads proposal's atomic add (address, addend → the old value); shared memories only. */
  i32AtomicAdd: (offset = 0): Bytes => [0xfe, 0x1e, ALIGN_4, ...uleb(offset)],
  /** The threads proposal's atomic loads (address → the value); shared memories only. */
  i32AtomicLoad: (offset = 0): Bytes => [0xfe, 0x10, ALIGN_4, ...uleb(offset)],
  i64AtomicLoad: (offset = 0): Bytes => [0xfe, 0x11, ALIGN_8, ...uleb(offset)],
  /** The 64-bit compare-and-swap (address, expected, replacement → the old value); shared memories only. */
  i64AtomicCmpxchg: (offset = 0): Bytes => [0xfe, 0x49, ALIGN_8, ...uleb(offset)],
  i32Const: (v: number): Bytes => [0x41, ...sleb(v)],
  f64Const: (v: number): Bytes => {
    const b = new Uint8Array(new Float64Array([v]).buffer);
    return [0x44, ...b];
  },
  i32Eqz: (): Bytes => [0x45],
  i32Eq: (): Bytes => [0x46],
  i32Ne: (): Bytes => [0x47],
  i32LtS: (): Bytes => [0x48],
  i32LtU: (): Bytes => [0x49],
  i32GtS: (): Bytes => [0x4a],
  i32GtU: (): Bytes => [0x4b],
  i32LeS: (): Bytes => [0x4c],
  i32GeS: (): Bytes => [0x4e],
  i32GeU: (): Bytes => [0x4f],
  i64Eq: (): Bytes => [0x51],
  i64Ne: (): Bytes => [0x52],
  f64Eq: (): Bytes => [0x61],
  f64Ne: (): Bytes => [0x62],
  f64Lt: (): Bytes => [0x63],
  f64Gt: (): Bytes => [0x64],
  i32Add: (): Bytes => [0x6a],
  i32Sub: (): Bytes => [0x6b],
  i32Mul: (): Bytes => [0x6c],
  i32And: (): Bytes => [0x71],
  i32Or: (): Bytes => [0x72],
  i32Shl: (): Bytes => [0x74],
  i32ShrU: (): Bytes => [0x76],
  f64Abs: (): Bytes => [0x99],
  f64Floor: (): Bytes => [0x9c],
  f64Add: (): Bytes => [0xa0],
  f64Sub: (): Bytes => [0xa1],
  f64Mul: (): Bytes => [0xa2],
  f64Div: (): Bytes => [0xa3],
  i32TruncF64S: (): Bytes => [0xaa],
  f64ConvertI32S: (): Bytes => [0xb7],
  /** A double's bits as an i64 and back (no conversion: the same 64 bits). */
  i64ReinterpretF64: (): Bytes => [0xbd],
  f64ReinterpretI64: (): Bytes => [0xbf],
};

/**
 * The bottom of a counted loop: `local += step`, then back to the start of the innermost loop
 * while `local < end` (unsigned for byte addresses, signed for node numbers).
 */
export function stepAndLoop(local: number, step: number, end: number, compare: 'unsigned' | 'signed'): Bytes[] {
  return [I.localGet(local), I.i32Const(step), I.i32Add(), I.localTee(local), I.localGet(end), compare === 'unsigned' ? I.i32LtU() : I.i32LtS(), I.brIf(0)];
}

/** Concatenates instruction lists (and nested lists) into one body. */
export function code(...parts: (Bytes | Bytes[])[]): number[] {
  const out: number[] = [];
  for (const p of parts) {
    if (p.length > 0 && typeof p[0] !== 'number') for (const q of p as Bytes[]) out.push(...q);
    else out.push(...(p as Bytes));
  }
  return out;
}

/** One function of a module: its signature, its extra locals and its body (without the final `end`). */
export interface FunctionDef {
  name: string;
  params: readonly ValueType[];
  results: readonly ValueType[];
  locals: readonly ValueType[];
  body: Bytes;
}

function vec(items: readonly Bytes[]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

function section(id: number, content: Bytes): number[] {
  return [id, ...uleb(content.length), ...content];
}

function name(text: string): number[] {
  const bytes = [...new TextEncoder().encode(text)];
  return [...uleb(bytes.length), ...bytes];
}

/** Locals in the body's header: runs of equal types, as the format groups them. */
function localGroups(locals: readonly ValueType[]): number[] {
  const runs: [number, ValueType][] = [];
  for (const t of locals) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last[1] === t) last[0]++;
    else runs.push([1, t]);
  }
  return vec(runs.map(([count, t]) => [...uleb(count), t]));
}

/** The most pages a memory may have: 2 GiB, so that every byte address is a positive i32. */
export const MAX_PAGES = 32768;

/**
 * A module that imports its memory as `env.memory` (at least `minPages` pages of 64 KiB) and
 * exports every function under its name. Each function gets a type of its own (the kernels
 * are few). With `shared` the import is a shared memory (the threads proposal's limits flag
 * 3, which requires a maximum: `MAX_PAGES`), so instances on several threads can run over
 * one memory.
 */
export function encodeModule(functions: readonly FunctionDef[], minPages = 1, shared = false): Uint8Array {
  const header = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  const types = section(1, vec(functions.map((f) => [0x60, ...vec(f.params.map((t) => [t])), ...vec(f.results.map((t) => [t]))])));
  const limits = shared ? [0x03, ...uleb(minPages), ...uleb(MAX_PAGES)] : [0x00, ...uleb(minPages)];
  const imports = section(2, vec([[...name('env'), ...name('memory'), 0x02, ...limits]]));
  const funcs = section(3, vec(functions.map((_, i) => uleb(i))));
  const exports = section(7, vec(functions.map((f, i) => [...name(f.name), 0x00, ...uleb(i)])));
  const bodies = section(10, vec(functions.map((f) => {
    const body = [...localGroups(f.locals), ...f.body, 0x0b];
    return [...uleb(body.length), ...body];
  })));
  return new Uint8Array([...header, ...types, ...imports, ...funcs, ...exports, ...bodies]);
}
