import { CodeArena } from './arena';
import { CLUSTER_FROM, Clusters } from './clusters';
import { ExactVectors } from './exact-vectors';
import { CodeStore, codeDot, cosineError, paddedDimension, quantize } from './kernel';

/** One fact as the index reads it from PostgreSQL (`indexRowsSql`). */
export interface IndexRow {
  id: string;
  bank_id: string;
  has_text: boolean;
  kind: string | null;
  status: string;
  embedding: ArrayLike<number> | null;
  norm_sq: number | null;
  /** the model that made the embedding (null for vectors written before models were recorded) */
  model?: string | null;
  usefulness: number;
  /** last signal, epoch milliseconds */
  t: number | null;
  /** superseded facts are not held; a validity interval (epoch ms, null: open) is checked at each scan */
  superseded?: boolean;
  valid_from_ms?: number | null;
  valid_to_ms?: number | null;
  /** query contexts: normalized query, query embedding, its sum of squares, usefulness, last signal (ms) */
  contexts: { n: string; e: ArrayLike<number> | null; q: number | null; u: number; t: number | null }[] | null;
}

/** A query context of a fact: its codes (null without an embedding), usefulness and last signal. */
export interface ContextCodes {
  normalized: string;
  codes: Int8Array | null;
  scale: number;
  err: number;
  usefulness: number;
  lastSignalMs: number;
}

export const LIVE = 1;
/** A live slot whose fact has a validity interval (see `BankVectors.validAt`). */
export const TIMED = 3;

const NONE = { u8: new Uint8Array(0), i32: new Int32Array(0), f64: new Float64Array(0) };

/** Leaders compared by all their codes when placing a fact (after the first quarter of the codes chose them). */
const SHORTLIST = 4;

/** JavaScript memory of a bank with no fact (measured: its maps, sets, arrays and store). */
const EMPTY_BANK_BYTES = 1536;

/** Whether every component is a 32-bit float (a model's output stored as float8), so a Float32Array holds it exactly. */
function float32Exact(v: ArrayLike<number>): boolean {
  for (let j = 0; j < v.length; j++) if (Math.fround(v[j]) !== v[j]) return false;
  return true;
}

/**
 * The facts of one bank that recall ranks by embedding (with text and an embedding of the
 * organization's dimension), in slots: 8-bit codes of the unit embedding in a `CodeStore`, and per
 * slot the quantization scale and error, kind and status codes, global usefulness and last signal,
 * the largest usefulness any of its sources can decay from, and its query contexts. Facts with
 * text but no usable embedding are ranked by PostgreSQL; only their ids are kept.
 *
 * While every vector of the bank is made of 32-bit floats (what an embedding model outputs, stored
 * as float8), the bank also holds them exactly as 32-bit floats (`ExactVectors`: in memory for a
 * small bank, in a private file of the process for a large one), so recall computes exact cosines
 * without reading vectors from PostgreSQL (`exactCosine`). The first vector that a 32-bit
 * float cannot hold (a client's float8 numbers) drops them for good: the bank then has no exact
 * vectors and recall reads them from PostgreSQL.
 */
export class BankVectors {
  readonly pdim: number;
  readonly store: CodeStore;
  ids: (string | null)[] = [];
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  // empty until the first vector (shared empty arrays: a bank with no vector costs little)
  flags = NONE.u8;
  scale = NONE.f64;
  err = NONE.f64;
  kind = NONE.i32;
  status = NONE.i32;
  usefulness = NONE.f64;
  lastSignalMs = NONE.f64;
  useMax = NONE.f64;
  /** the stored sum of squares of each vector, and its model's code */
  normSq = NONE.f64;
  model = NONE.i32;
  contexts: (ContextCodes[] | undefined)[] = [];
  private contextCount = 0;
  /** leader clusters for the first pass of recall (`Clusters`), from `CLUSTER_FROM` facts on */
  clusters: Clusters | null = null;
  /** the exact vectors; null once a vector was not 32-bit floats (or the file could not take one) */
  private exact: ExactVectors | null;
  /** the validity intervals of the TIMED slots: [from, to) in epoch ms, NaN when open */
  private readonly windows = new Map<number, [number, number]>();
  /** facts with text but no usable embedding (PostgreSQL ranks them by text similarity) */
  readonly textOnly = new Set<string>();
  /** buffers of one scan, reused (a scan runs without yielding) */
  private scan = { slots: NONE.i32, uppers: NONE.f64 };
  /** kind and status dictionaries (codes are indexes) */
  readonly kinds = new Map<string | null, number>();
  readonly statuses = new Map<string, number>();
  readonly models = new Map<string | null, number>();

  /** `arena`: where the codes live (the index's shared arena; a bank of its own by default). */
  constructor(
    readonly dim: number,
    arena: CodeArena = new CodeArena(),
  ) {
    this.pdim = paddedDimension(dim);
    this.store = new CodeStore(this.pdim, arena);
    this.exact = new ExactVectors(dim);
  }

  /** Slots in use or freed (a scan covers 0..size-1). */
  get size(): number {
    return this.ids.length;
  }

  get count(): number {
    return this.slotOf.size;
  }

  /** Scratch buffers with room for every slot. */
  scratch(): { slots: Int32Array; uppers: Float64Array } {
    if (this.scan.slots.length < this.size)
      this.scan = { slots: new Int32Array(this.flags.length), uppers: new Float64Array(this.flags.length) };
    return this.scan;
  }

  /** Makes room for `slots` slots, no more (a bank read in chunks grows by each chunk, in place). */
  reserve(slots: number): void {
    if (slots <= this.flags.length) return;
    this.store.ensure(slots, true);
    this.grow(this.store.capacity);
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  private grow(capacity: number): void {
    const copy = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, Math.min(a.length, capacity)));
      return b;
    };
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
    this.scale = copy(this.scale, (n) => new Float64Array(n));
    this.err = copy(this.err, (n) => new Float64Array(n));
    this.kind = copy(this.kind, (n) => new Int32Array(n));
    this.status = copy(this.status, (n) => new Int32Array(n));
    this.usefulness = copy(this.usefulness, (n) => new Float64Array(n));
    this.lastSignalMs = copy(this.lastSignalMs, (n) => new Float64Array(n));
    this.useMax = copy(this.useMax, (n) => new Float64Array(n));
    this.normSq = copy(this.normSq, (n) => new Float64Array(n));
    this.model = copy(this.model, (n) => new Int32Array(n));
    this.clusters?.grow(capacity);
  }

  private code<K>(dict: Map<K, number>, key: K): number {
    let c = dict.get(key);
    if (c === undefined) dict.set(key, (c = dict.size));
    return c;
  }

  /** Whether the row belongs in this index (it has text and an embedding of the bank's dimension). */
  accepts(row: IndexRow): boolean {
    return row.has_text && row.embedding !== null && row.embedding.length === this.dim;
  }

  /** Whether the TIMED slot's fact is valid at `ms`. */
  validAt(slot: number, ms: number): boolean {
    const w = this.windows.get(slot);
    return !w || (!(ms < w[0]) && !(ms >= w[1]));
  }

  /** Adds or replaces a fact (removes it when it no longer belongs; a superseded fact is not held at all). */
  put(row: IndexRow): void {
    if (row.superseded) {
      this.remove(row.id);
      return;
    }
    if (!this.accepts(row)) {
      this.remove(row.id);
      if (row.has_text) this.textOnly.add(row.id);
      return;
    }
    let slot = this.slotOf.get(row.id);
    if (slot === undefined) {
      // room first: when the arena has none (ArenaFull), the bank is as it was
      if (this.free.length === 0 && this.ids.length >= this.flags.length) {
        this.store.ensure(this.ids.length + 1);
        this.grow(this.store.capacity);
      }
      slot = this.free.pop() ?? this.ids.length;
      if (slot === this.ids.length) {
        this.ids.push(null);
        this.contexts.push(undefined);
      }
      this.ids[slot] = row.id;
      this.slotOf.set(row.id, slot);
    }
    this.textOnly.delete(row.id);
    this.keepExact(slot, row.embedding!);
    const q = quantize(row.embedding!, Number(row.norm_sq), this.store.codes, slot * this.pdim, this.pdim);
    const timed = (row.valid_from_ms ?? null) !== null || (row.valid_to_ms ?? null) !== null;
    this.flags[slot] = timed ? TIMED : LIVE;
    if (timed) this.windows.set(slot, [Number(row.valid_from_ms ?? Number.NaN), Number(row.valid_to_ms ?? Number.NaN)]);
    else this.windows.delete(slot);
    this.scale[slot] = q.scale;
    this.err[slot] = q.err;
    this.store.scales[slot] = q.scale;
    this.store.errs[slot] = q.err;
    this.kind[slot] = this.code(this.kinds, row.kind);
    this.status[slot] = this.code(this.statuses, row.status);
    this.normSq[slot] = Number(row.norm_sq);
    this.model[slot] = this.code(this.models, row.model ?? null);
    this.usefulness[slot] = Number(row.usefulness);
    this.lastSignalMs[slot] = row.t === null ? Number.NaN : Number(row.t);
    this.setContexts(slot, row.contexts ?? []);
    if (this.clusters) this.place(slot, row.embedding!);
    else if (this.count >= CLUSTER_FROM) this.clusterAll();
  }

  /**
   * Places a slot's fact in the cluster whose leader is nearest by the codes (see `Clusters`): the
   * leaders are compared by the first quarter of the codes, then the few nearest by all of them.
   */
  private place(slot: number, v: ArrayLike<number>): void {
    const clusters = this.clusters!;
    const leaders = clusters.activeLeaders();
    let nearest = -1;
    let best = -Infinity;
    if (leaders.n > 0) {
      this.store.query.set(this.store.codes.subarray(slot * this.pdim, (slot + 1) * this.pdim));
      const short =
        leaders.n > SHORTLIST ? this.shortlist(leaders.slots, leaders.n) : Int32Array.from(leaders.slots.keys()).subarray(0, leaders.n);
      const slots = short.map((k) => leaders.slots[k]);
      const dots = this.store.dotsAt(slots, slots.length);
      for (let k = 0; k < short.length; k++) {
        const cosine = dots[k] * this.scale[slot] * this.scale[slots[k]];
        if (cosine > best) [best, nearest] = [cosine, leaders.clusters[short[k]]];
      }
    }
    clusters.put(slot, v, this.normSq[slot], this.useMax[slot], nearest, best);
  }

  /** The indexes (in `slots`) of the `SHORTLIST` leaders nearest the query codes by their first quarter. */
  private shortlist(slots: Int32Array, n: number): Int32Array {
    const len = Math.min(this.pdim, Math.ceil(this.pdim / 64) * 16);
    const partial = this.store.dotsAt(slots, n, len);
    const top = new Int32Array(SHORTLIST).fill(-1);
    const score = new Float64Array(SHORTLIST).fill(-Infinity);
    for (let k = 0; k < n; k++) {
      const s = partial[k] * this.scale[slots[k]];
      if (s <= score[SHORTLIST - 1]) continue;
      let at = SHORTLIST - 1;
      for (; at > 0 && score[at - 1] < s; at--) [score[at], top[at]] = [score[at - 1], top[at - 1]];
      [score[at], top[at]] = [s, k];
    }
    return top;
  }

  /** Clusters every fact held (the bank reached `CLUSTER_FROM`), from the exact vectors; none without them. */
  private clusterAll(): void {
    if (this.exact === null) return;
    this.clusters = new Clusters(this.dim);
    this.clusters.grow(this.flags.length);
    for (let slot = 0; slot < this.size; slot++) if (this.ids[slot] !== null) this.place(slot, this.exact.read(slot));
  }

  /** Whether the bank holds every vector exactly (see the class). */
  get holdsExact(): boolean {
    return this.exact !== null;
  }

  private keepExact(slot: number, v: ArrayLike<number>): void {
    if (this.exact === null) return;
    if (!float32Exact(v) || !this.exact.set(slot, v, this.flags.length)) {
      this.exact.release();
      this.exact = null;
    }
  }

  /**
   * The cosine of a fact's exact vector with `q` (`qNormSq` its sum of squares in array order), as
   * recall's statements compute it: the products added left to right in 64-bit floats, divided by
   * sqrt(stored sum of squares * qNormSq), 0 when either is 0. Null when the bank does not hold the
   * fact or holds no exact vectors.
   */
  exactCosine(id: string, q: readonly number[], qNormSq: number): number | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined || this.exact === null) return null;
    const normSq = this.normSq[slot];
    if (qNormSq === 0 || normSq === 0) return 0;
    return this.exact.dot(slot, q) / Math.sqrt(normSq * qNormSq);
  }

  /** A query's 8-bit codes, scale and error bound (for `cosineUpper`). */
  queryCodes(q: readonly number[], qNormSq: number): { codes: Int8Array; scale: number; err: number } {
    const codes = new Int8Array(this.pdim);
    return { codes, ...quantize(q, qNormSq, codes, 0, this.pdim) };
  }

  /** An upper bound of a fact's cosine with the query, from the 8-bit codes and their error bounds; null when the bank does not hold it. */
  cosineUpper(id: string, query: { codes: Int8Array; scale: number; err: number }): number | null {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return null;
    const dot = codeDot(this.store.codes, slot * this.pdim, query.codes, 0, this.pdim);
    return dot * this.scale[slot] * query.scale + cosineError(this.err[slot], query.err);
  }

  /** Whether every vector the bank held was made by `model` (a fact's model code is never reused). */
  onlyModel(model: string): boolean {
    for (const m of this.models.keys()) if (m !== model) return false;
    return true;
  }

  private setContexts(slot: number, rows: NonNullable<IndexRow['contexts']>): void {
    this.contextCount -= this.contexts[slot]?.length ?? 0;
    let useMax = Math.max(this.usefulness[slot], 0.5);
    const list: ContextCodes[] = [];
    for (const c of rows) {
      let codes: Int8Array | null = null;
      let q = { scale: 0, err: 0 };
      if (c.e && c.e.length === this.dim) {
        codes = new Int8Array(this.pdim);
        q = quantize(c.e, Number(c.q), codes, 0, this.pdim);
      } else if (c.e) {
        continue; // an embedding of another dimension never matches a query embedding
      }
      list.push({
        normalized: c.n,
        codes,
        scale: q.scale,
        err: q.err,
        usefulness: Number(c.u),
        lastSignalMs: c.t === null ? Number.NaN : Number(c.t),
      });
      useMax = Math.max(useMax, Number(c.u));
    }
    this.contexts[slot] = list.length ? list : undefined;
    this.contextCount += list.length;
    this.useMax[slot] = useMax;
    this.store.uses[slot] = useMax;
  }

  remove(id: string): void {
    this.textOnly.delete(id);
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.clusters?.leave(slot);
    this.contextCount -= this.contexts[slot]?.length ?? 0;
    this.ids[slot] = null;
    this.contexts[slot] = undefined;
    this.flags[slot] = 0;
    this.windows.delete(slot);
    // a freed slot never reaches a threshold in a scan
    this.store.uses[slot] = Number.NEGATIVE_INFINITY;
    this.store.scales[slot] = Number.NaN;
    this.free.push(slot);
  }

  /** Gives the codes back to the arena: the bank leaves the index and must not be scanned again. */
  release(): void {
    // the exact vectors stay readable while a recall holds the bank (its file closes once the bank is collected)
    this.store.release();
  }

  /**
   * JavaScript memory held, in bytes: about 1.5 KiB for an empty bank (its maps, sets and arrays,
   * measured), 85 bytes of typed arrays per slot (scan buffers included), about 110 for the id
   * string and its map entry, per query context its codes and about 150 bytes of object, and the
   * exact vectors held in memory (not those in a file).
   */
  get heapBytes(): number {
    return (
      EMPTY_BANK_BYTES +
      this.flags.length * 85 +
      (this.slotOf.size + this.textOnly.size) * 110 +
      this.windows.size * 80 +
      this.contextCount * (this.pdim + 150) +
      (this.exact?.heapBytes ?? 0) +
      (this.clusters?.bytes ?? 0)
    );
  }

  /** Memory held, in bytes: its slice of the arena and its JavaScript memory. */
  get bytes(): number {
    return this.store.bytes + this.heapBytes;
  }
}
