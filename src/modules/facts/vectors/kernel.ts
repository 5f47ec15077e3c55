import { DOT_KERNEL_WASM } from './dot-kernel.wasm';

const kernel = new WebAssembly.Module(Buffer.from(DOT_KERNEL_WASM, 'base64'));
const PAGE = 65_536;

/** Codes are padded to whole 16-byte SIMD lanes. */
export const paddedDimension = (dim: number): number => Math.ceil(dim / 16) * 16;

/**
 * The 8-bit codes of many vectors in one WebAssembly memory, with room for a query's codes and
 * the sums of one scan: `dots(n)` computes the integer dot product of the query with vectors
 * 0..n-1 (dot-kernel.wat). Growing copies the codes into a memory twice as large.
 */
export class CodeStore {
  private memory!: WebAssembly.Memory;
  private run!: (codes: number, n: number, dim: number, query: number, out: number) => void;
  private queryAt = 0;
  private outAt = 0;
  capacity = 0;
  codes!: Int8Array;
  query!: Int8Array;

  constructor(readonly pdim: number, capacity: number) {
    this.allocate(Math.max(16, capacity));
  }

  private allocate(capacity: number): void {
    const old = this.codes;
    this.queryAt = capacity * this.pdim;
    this.outAt = Math.ceil((this.queryAt + this.pdim) / 16) * 16;
    const bytes = this.outAt + capacity * 4;
    this.memory = new WebAssembly.Memory({ initial: Math.ceil(bytes / PAGE) });
    const instance = new WebAssembly.Instance(kernel, { env: { memory: this.memory } });
    this.run = instance.exports.dots as CodeStore['run'];
    this.codes = new Int8Array(this.memory.buffer, 0, this.queryAt);
    this.query = new Int8Array(this.memory.buffer, this.queryAt, this.pdim);
    if (old) this.codes.set(old.subarray(0, Math.min(old.length, this.codes.length)));
    this.capacity = capacity;
  }

  /** Makes room for `slots` vectors. */
  ensure(slots: number): void {
    if (slots > this.capacity) this.allocate(Math.max(slots, this.capacity * 2));
  }

  /** Dot products of the query codes with vectors 0..n-1 (a view, valid until the next call). */
  dots(n: number): Int32Array {
    this.run(0, n, this.pdim, this.queryAt, this.outAt);
    return new Int32Array(this.memory.buffer, this.outAt, n);
  }

  get bytes(): number {
    return this.memory.buffer.byteLength;
  }
}

/** Bound of the distance between a unit vector and its codes times `scale`, for its dimension. */
const errorBound = (dim: number, scale: number) => Math.sqrt(dim) * scale * 0.5 * (1 + 1e-9);

/**
 * Writes the codes of `v / |v|` (|v| from the stored sum of squares) into `out` at `offset`:
 * each component becomes round(component / scale) with scale = largest magnitude / 127, so the
 * component is within scale / 2 of code * scale. Returns the scale and the bound of the distance
 * between the unit vector and its reconstruction (0 and 0 for a zero vector).
 */
export function quantize(v: ArrayLike<number>, normSq: number, out: Int8Array, offset: number, pdim: number): { scale: number; err: number } {
  out.fill(0, offset, offset + pdim);
  if (!(normSq > 0) || !Number.isFinite(normSq)) return { scale: 0, err: 0 };
  const inv = 1 / Math.sqrt(normSq);
  let max = 0;
  for (let j = 0; j < v.length; j++) max = Math.max(max, Math.abs(v[j] * inv));
  if (!(max > 0)) return { scale: 0, err: 0 };
  const scale = max / 127;
  for (let j = 0; j < v.length; j++) out[offset + j] = Math.round((v[j] * inv) / scale);
  return { scale, err: errorBound(v.length, scale) };
}

/** Integer dot product of two code vectors (for the few vectors scored one by one). */
export function codeDot(a: Int8Array, aAt: number, b: Int8Array, bAt: number, pdim: number): number {
  let s = 0;
  for (let j = 0; j < pdim; j++) s += a[aAt + j] * b[bAt + j];
  return s;
}

/**
 * Bound of |cosine - approximate cosine| for a vector and a query quantized with errors `e` and
 * `eq`: |(v - v') . q| <= e and |v' . (q - q')| <= (1 + e) eq, plus rounding.
 */
export const cosineError = (e: number, eq: number): number => e + (1 + e) * eq + 1e-9;
