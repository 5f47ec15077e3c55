import { DOT_KERNEL_WASM } from './dot-kernel.wasm';

const kernelModule = new WebAssembly.Module(Buffer.from(DOT_KERNEL_WASM, 'base64'));
export const PAGE = 65_536;
/** The most a 32-bit WebAssembly memory can address (65,536 pages). */
const MAX_MEMORY = 65_536 * PAGE;
/** A shrink releases at least this share of the memory (so a run of small releases copies rarely). */
const SHRINK_STEP = 4;

export interface Kernel {
  dots: (codes: number, n: number, dim: number, query: number, out: number) => void;
  dotsAt: (codes: number, list: number, n: number, dim: number, len: number, query: number, out: number) => void;
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
}

/** A region of the arena; `at` moves when the arena compacts. */
export interface Slice {
  at: number;
  bytes: number;
}

/** No memory for a slice: the index is full (nothing left to evict) or the engine refused memory. */
export class ArenaFull extends Error {
  constructor(
    reason: string,
    /** the slice asked for */
    readonly bytes: number,
    /** the engine refused memory (rather than the budget having no room) */
    readonly refused = false,
  ) {
    super(`recall index arena full: ${reason}`);
  }
}

/**
 * The room an arena may use, decided by its owner: `room()` is how many more bytes it may reserve;
 * `reclaim(bytes)` frees something (evicts a bank) to make room for a slice of `bytes`, and says
 * whether it did.
 */
export interface ArenaBudget {
  room(): number;
  reclaim(bytes: number): boolean;
}

const UNBOUNDED: ArenaBudget = { room: () => Number.POSITIVE_INFINITY, reclaim: () => false };

/**
 * One WebAssembly memory shared by every bank's codes, each bank a slice of it, with one kernel
 * instance. A memory reserves its whole address range up front (about 10 GiB on 64-bit engines,
 * guard regions included) whatever its size, and an engine refuses new ones after a few thousand:
 * one memory for all banks keeps that cost constant, and a bank with no vector takes no slice.
 * Slices are laid out one after another; a freed slice leaves a hole that the next allocation
 * that does not fit after the last slice closes by sliding the later slices down (compaction).
 * The memory grows in place (the reservation makes growing free of copies) within the budget's
 * room, and shrinks (copied into a smaller memory) only when asked to give bytes back.
 * `generation` changes whenever views of the memory must be made again (grown, moved, replaced).
 */
export class CodeArena {
  private memory: WebAssembly.Memory | null = null;
  kernel: Kernel | null = null;
  /** live slices in address order */
  private slices: Slice[] = [];
  private end = 0;
  private live = 0;
  generation = 0;

  constructor(
    private readonly budget: ArenaBudget = UNBOUNDED,
    private readonly maxMemory = MAX_MEMORY,
  ) {}

  get buffer(): ArrayBuffer {
    return this.memory!.buffer;
  }

  /** Bytes reserved and committed: the memory's size. */
  get reserved(): number {
    return this.memory ? this.memory.buffer.byteLength : 0;
  }

  /** Bytes in live slices. */
  get used(): number {
    return this.live;
  }

  /** A slice of `bytes` (a multiple of 16). Throws `ArenaFull` when there is no room. */
  alloc(bytes: number): Slice {
    for (;;) {
      if (this.end + bytes > this.reserved && this.live + bytes <= this.reserved) this.compact();
      if (this.end + bytes <= this.reserved) break;
      const need = Math.ceil((this.end + bytes - this.reserved) / PAGE) * PAGE;
      const want = Math.max(need, Math.ceil(this.reserved / 2 / PAGE) * PAGE);
      const room = Math.min(this.budget.room(), this.maxMemory - this.reserved);
      if (need <= room) {
        this.grow(Math.min(want, Math.floor(room / PAGE) * PAGE), bytes);
        continue;
      }
      if (!this.budget.reclaim(bytes)) throw new ArenaFull(`no room for ${bytes} bytes`, bytes);
    }
    const slice = { at: this.end, bytes };
    this.slices.push(slice);
    this.end += bytes;
    this.live += bytes;
    return slice;
  }

  /**
   * Resizes the last slice in place when the memory has room or may grow within the budget (no
   * eviction); false otherwise (the caller then allocates a new slice and copies).
   */
  resize(slice: Slice, bytes: number): boolean {
    if (this.slices.at(-1) !== slice) return false;
    const end = slice.at + bytes;
    if (end > this.reserved) {
      const need = Math.ceil((end - this.reserved) / PAGE) * PAGE;
      if (need > Math.min(this.budget.room(), this.maxMemory - this.reserved)) return false;
      try {
        this.grow(need, bytes);
      } catch {
        return false;
      }
    }
    this.live += bytes - slice.bytes;
    slice.bytes = bytes;
    this.end = end;
    return true;
  }

  free(slice: Slice): void {
    const i = this.slices.indexOf(slice);
    if (i < 0) return;
    this.slices.splice(i, 1);
    this.live -= slice.bytes;
    // the last slice freed: the space after the one before it is free again
    if (i === this.slices.length) this.end = this.slices.length ? this.slices[i - 1].at + this.slices[i - 1].bytes : 0;
  }

  /**
   * Gives back up to `bytes` of reserved memory not in slices, in steps of at least a quarter of
   * the memory (a smaller release is not worth copying the slices for). Returns the bytes released.
   */
  release(bytes: number): number {
    const slack = this.reserved - Math.ceil(this.live / PAGE) * PAGE;
    if (slack <= 0 || slack < bytes || !this.memory) return 0;
    const target = this.reserved - Math.max(Math.ceil(bytes / PAGE) * PAGE, Math.floor(this.reserved / SHRINK_STEP / PAGE) * PAGE);
    // nothing in use: everything goes back
    const size = this.live === 0 ? 0 : Math.max(Math.ceil(this.live / PAGE) * PAGE, target);
    const before = this.reserved;
    if (size === 0) {
      this.memory = null;
      this.kernel = null;
      this.end = 0;
      this.generation += 1;
      return before;
    }
    const old = new Uint8Array(this.memory.buffer);
    let memory: WebAssembly.Memory;
    try {
      memory = this.create(size / PAGE);
    } catch {
      return 0; // no new memory now: keep the one there is
    }
    const into = new Uint8Array(memory.buffer);
    let at = 0;
    for (const s of this.slices) {
      into.set(old.subarray(s.at, s.at + s.bytes), at);
      s.at = at;
      at += s.bytes;
    }
    this.end = at;
    this.generation += 1;
    return before - this.reserved;
  }

  /** Slides every slice down over the holes freed slices left. */
  private compact(): void {
    if (!this.memory) return;
    const all = new Uint8Array(this.memory.buffer);
    let at = 0;
    for (const s of this.slices) {
      if (s.at !== at) all.copyWithin(at, s.at, s.at + s.bytes);
      s.at = at;
      at += s.bytes;
    }
    this.end = at;
    this.generation += 1;
  }

  private grow(bytes: number, asked: number): void {
    try {
      if (!this.memory) this.create(bytes / PAGE);
      else this.memory.grow(bytes / PAGE);
    } catch (err) {
      // the engine refused memory (address space or the process's limits): the caller falls back
      if (err instanceof RangeError) throw new ArenaFull(err.message, asked, true);
      throw err;
    }
    this.generation += 1;
  }

  private create(pages: number): WebAssembly.Memory {
    const memory = new WebAssembly.Memory({ initial: pages });
    this.kernel = new WebAssembly.Instance(kernelModule, { env: { memory } }).exports as unknown as Kernel;
    this.memory = memory;
    return memory;
  }
}
