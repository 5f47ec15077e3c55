import type { CodeArena, Slice } from './arena';

/** Codes are padded to whole 16-byte SIMD lanes. */
export const paddedDimension = (dim: number): number => Math.ceil(dim / 16) * 16;

const align = (n: number): number => Math.ceil(n / 16) * 16;

interface Views {
  generation: number;
  codes: Int8Array;
  query: Int8Array;
  scales: Float32Array;
  errs: Float32Array;
  uses: Float32Array;
}

/**
 * The 8-bit codes of one bank's vectors in a slice of a shared `CodeArena`, with per vector the
 * 32-bit bounds the scan needs (scale, quantization error, usefulness bound), room for a query's
 * codes and for the output of one scan (dot-kernel.wat): `dots(n)` computes the integer dot
 * products of the query with vectors 0..n-1; `above(...)` returns the vectors whose score bound
 * reaches a threshold. A store without vectors takes no slice (its query codes live in a plain
 * array). Growing copies everything into a slice twice as large. Views (`codes`, `query`, ...)
 * are valid until the next allocation in the arena: read them again after one.
 */
export class CodeStore {
  private slice: Slice | null = null;
  private at = { query: 0, scales: 0, errs: 0, uses: 0, dots: 0, out: 0 };
  private views: Views | null = null;
  private looseQuery: Int8Array | null = null;
  /** the slice was given back (the bank left the index): a scan would read another bank's memory */
  private released = false;
  capacity = 0;

  constructor(
    readonly pdim: number,
    private readonly arena: CodeArena,
  ) {}

  private layout(capacity: number) {
    const query = capacity * this.pdim;
    const scales = align(query + this.pdim);
    const errs = scales + capacity * 4;
    const uses = errs + capacity * 4;
    const dots = uses + capacity * 4;
    const out = dots + capacity * 4;
    return { at: { query, scales, errs, uses, dots, out }, bytes: out + capacity * 8 };
  }

  private view(): Views {
    if (this.views && this.views.generation === this.arena.generation) return this.views;
    const c = this.capacity;
    if (!this.slice) {
      const none = { codes: new Int8Array(0), scales: new Float32Array(0), errs: new Float32Array(0), uses: new Float32Array(0) };
      this.looseQuery ??= new Int8Array(this.pdim);
      return (this.views = { generation: this.arena.generation, ...none, query: this.looseQuery });
    }
    const buffer = this.arena.buffer;
    const base = this.slice.at;
    const at = this.at;
    return (this.views = {
      generation: this.arena.generation,
      codes: new Int8Array(buffer, base, c * this.pdim),
      query: new Int8Array(buffer, base + at.query, this.pdim),
      scales: new Float32Array(buffer, base + at.scales, c),
      errs: new Float32Array(buffer, base + at.errs, c),
      uses: new Float32Array(buffer, base + at.uses, c),
    });
  }

  get codes(): Int8Array {
    return this.view().codes;
  }
  get query(): Int8Array {
    return this.view().query;
  }
  /** per vector: its scale, quantization error bound and usefulness bound, as 32-bit floats */
  get scales(): Float32Array {
    return this.view().scales;
  }
  get errs(): Float32Array {
    return this.view().errs;
  }
  get uses(): Float32Array {
    return this.view().uses;
  }

  /**
   * Makes room for `slots` vectors (`exact`: no more, for a bank read in chunks); throws
   * `ArenaFull` (and changes nothing) when the arena has none. The last slice of the arena grows in
   * place: its codes stay, the per-vector arrays after them move up.
   */
  ensure(slots: number, exact = false): void {
    if (slots <= this.capacity) return;
    if (this.released) throw new Error('recall index: a released bank cannot grow');
    const capacity = align(exact ? slots : Math.max(slots, this.capacity * 2, 16));
    const { at, bytes } = this.layout(capacity);
    if (this.slice && this.arena.resize(this.slice, bytes)) {
      const all = new Uint8Array(this.arena.buffer);
      const base = this.slice.at;
      const n = this.capacity * 4;
      // highest first: each array moves up past where the ones after it were
      all.copyWithin(base + at.uses, base + this.at.uses, base + this.at.uses + n);
      all.copyWithin(base + at.errs, base + this.at.errs, base + this.at.errs + n);
      all.copyWithin(base + at.scales, base + this.at.scales, base + this.at.scales + n);
      this.at = at;
      this.capacity = capacity;
      this.views = null;
      return;
    }
    const slice = this.arena.alloc(bytes);
    const previous = this.slice;
    // views of the old slice where it is now (the allocation may have moved it)
    const old = previous ? this.view() : null;
    this.slice = slice;
    this.at = at;
    this.capacity = capacity;
    this.views = null;
    if (old && previous) {
      const now = this.view();
      now.codes.set(old.codes);
      now.scales.set(old.scales);
      now.errs.set(old.errs);
      now.uses.set(old.uses);
      this.arena.free(previous);
    }
  }

  /** Gives the slice back to the arena; the store holds nothing after. */
  release(): void {
    if (this.slice) this.arena.free(this.slice);
    this.slice = null;
    this.views = null;
    this.released = true;
  }

  private check(n: number): void {
    if (n > 0 && (!this.slice || this.released)) throw new Error('recall index: scan of a bank that holds no vectors');
  }

  /** Dot products of the query codes with vectors 0..n-1 (a view, valid until the next call). */
  dots(n: number): Int32Array {
    this.check(n);
    if (n === 0) return new Int32Array(0);
    const base = this.slice!.at;
    this.arena.kernel!.dots(base, n, this.pdim, base + this.at.query, base + this.at.dots);
    return new Int32Array(this.arena.buffer, base + this.at.dots, n);
  }

  /**
   * Dot products of the query codes with the vectors of the first `n` slots listed in `slots`
   * (distinct slots), in the list's order (a view, valid until the next call); over the first
   * `len` codes only when given (a multiple of 16).
   */
  dotsAt(slots: Int32Array, n: number, len = this.pdim): Int32Array {
    this.check(n);
    if (n === 0) return new Int32Array(0);
    const base = this.slice!.at;
    // the list goes where `above` writes its pairs; the products where `dots` writes its own
    new Int32Array(this.arena.buffer, base + this.at.out, n).set(slots.subarray(0, n));
    this.arena.kernel!.dotsAt(base, base + this.at.out, n, this.pdim, len, base + this.at.query, base + this.at.dots);
    return new Int32Array(this.arena.buffer, base + this.at.dots, n);
  }

  /**
   * Vectors 0..n-1 whose bound `(1 - w) * max(0, dot * scale * qs + err + (1 + err) * qe) + w * use`
   * reaches `threshold`, in 32-bit floats: pairs (index, dot product) in a view valid until the
   * next call.
   */
  above(n: number, qs: number, qe: number, w: number, threshold: number): Int32Array {
    this.check(n);
    if (n === 0) return new Int32Array(0);
    const base = this.slice!.at;
    const { query, scales, errs, uses, dots, out } = this.at;
    const k = this.arena.kernel!;
    k.dots(base, n, this.pdim, base + query, base + dots);
    const count = k.above(base + dots, n, base + scales, base + errs, base + uses, qs, qe, w, threshold, base + out);
    return new Int32Array(this.arena.buffer, base + out, 2 * count);
  }

  /** Bytes of the arena this store holds. */
  get bytes(): number {
    return this.slice?.bytes ?? 0;
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
