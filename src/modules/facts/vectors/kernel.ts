import { DOT_KERNEL_WASM } from './dot-kernel.wasm';

const kernel = new WebAssembly.Module(Buffer.from(DOT_KERNEL_WASM, 'base64'));
const PAGE = 65_536;

/** Codes are padded to whole 16-byte SIMD lanes. */
export const paddedDimension = (dim: number): number => Math.ceil(dim / 16) * 16;

/**
 * The 8-bit codes of many vectors in one WebAssembly memory, with per vector the 32-bit bounds the
 * scan needs (scale, quantization error, usefulness bound), room for a query's codes and for the
 * output of one scan (dot-kernel.wat): `dots(n)` computes the integer dot products of the query with
 * vectors 0..n-1; `above(...)` returns the vectors whose score bound reaches a threshold. Growing
 * copies everything into a memory twice as large.
 */
export class CodeStore {
  private memory!: WebAssembly.Memory;
  private kernel!: {
    dots: (codes: number, n: number, dim: number, query: number, out: number) => void;
    above: (
      dots: number,
      n: number,
      scales: number,
      errs: number,
      uses: number,
      qs: number,
      qe: number,
      w: number,
      threshold: number,
      out: number,
    ) => number;
  };
  private at = { query: 0, scales: 0, errs: 0, uses: 0, dots: 0, out: 0 };
  capacity = 0;
  codes!: Int8Array;
  query!: Int8Array;
  /** per vector: its scale, quantization error bound and usefulness bound, as 32-bit floats */
  scales!: Float32Array;
  errs!: Float32Array;
  uses!: Float32Array;

  constructor(
    readonly pdim: number,
    capacity: number,
  ) {
    this.allocate(Math.max(16, capacity));
  }

  private allocate(slots: number): void {
    // whole SIMD lanes of 32-bit values per array
    const capacity = Math.ceil(slots / 16) * 16;
    const old = this.memory ? { codes: this.codes, scales: this.scales, errs: this.errs, uses: this.uses } : null;
    const align = (n: number) => Math.ceil(n / 16) * 16;
    const query = capacity * this.pdim;
    const scales = align(query + this.pdim);
    const errs = scales + capacity * 4;
    const uses = errs + capacity * 4;
    const dots = uses + capacity * 4;
    const out = dots + capacity * 4;
    this.at = { query, scales, errs, uses, dots, out };
    this.memory = new WebAssembly.Memory({ initial: Math.ceil((out + capacity * 8) / PAGE) });
    const instance = new WebAssembly.Instance(kernel, { env: { memory: this.memory } });
    this.kernel = instance.exports as CodeStore['kernel'];
    const buffer = this.memory.buffer;
    this.codes = new Int8Array(buffer, 0, query);
    this.query = new Int8Array(buffer, query, this.pdim);
    this.scales = new Float32Array(buffer, scales, capacity);
    this.errs = new Float32Array(buffer, errs, capacity);
    this.uses = new Float32Array(buffer, uses, capacity);
    if (old) {
      this.codes.set(old.codes);
      this.scales.set(old.scales);
      this.errs.set(old.errs);
      this.uses.set(old.uses);
    }
    this.capacity = capacity;
  }

  /** Makes room for `slots` vectors. */
  ensure(slots: number): void {
    if (slots > this.capacity) this.allocate(Math.max(slots, this.capacity * 2));
  }

  /** Dot products of the query codes with vectors 0..n-1 (a view, valid until the next call). */
  dots(n: number): Int32Array {
    this.kernel.dots(0, n, this.pdim, this.at.query, this.at.dots);
    return new Int32Array(this.memory.buffer, this.at.dots, n);
  }

  /**
   * Vectors 0..n-1 whose bound `(1 - w) * max(0, dot * scale * qs + err + (1 + err) * qe) + w * use`
   * reaches `threshold`, in 32-bit floats: pairs (index, dot product) in a view valid until the
   * next call.
   */
  above(n: number, qs: number, qe: number, w: number, threshold: number): Int32Array {
    const { query, scales, errs, uses, dots, out } = this.at;
    this.kernel.dots(0, n, this.pdim, query, dots);
    const count = this.kernel.above(dots, n, scales, errs, uses, qs, qe, w, threshold, out);
    return new Int32Array(this.memory.buffer, out, 2 * count);
  }

  get bytes(): number {
    return this.memory.buffer.byteLength;
  }
}

/**
 * Writes the codes of `v / |v|` (|v| from the stored sum of squares) into `out` at `offset`:
 * each component becomes round(component / scale) with scale = largest magnitude / 127. Returns
 * the scale and the distance between the unit vector and its reconstruction (code * scale per
 * component), measured and rounded up: with the query at unit length, the dot product with the
 * reconstruction is off by at most that much (Cauchy-Schwarz). 0 and 0 for a zero vector.
 */
export function quantize(
  v: ArrayLike<number>,
  normSq: number,
  out: Int8Array,
  offset: number,
  pdim: number,
): { scale: number; err: number } {
  out.fill(0, offset, offset + pdim);
  if (!(normSq > 0) || !Number.isFinite(normSq)) return { scale: 0, err: 0 };
  const inv = 1 / Math.sqrt(normSq);
  let max = 0;
  for (let j = 0; j < v.length; j++) max = Math.max(max, Math.abs(v[j] * inv));
  if (!(max > 0)) return { scale: 0, err: 0 };
  const scale = max / 127;
  let errSq = 0;
  for (let j = 0; j < v.length; j++) {
    const c = Math.round((v[j] * inv) / scale);
    out[offset + j] = c;
    const e = v[j] * inv - c * scale;
    errSq += e * e;
  }
  // relative slack for the rounding of this arithmetic, absolute for the smallest errors
  return { scale, err: Math.sqrt(errSq) * (1 + 1e-6) + 1e-12 };
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
