import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Slots per block of vectors held in memory: a bank grows by blocks, never copying the vectors it holds. */
const BLOCK = 1024;
/** A bank's exact vectors past this many bytes move to a file of the process (see `ExactVectors`). */
export const FILE_AFTER_BYTES = 16 * 2 ** 20;
/** Slots written to the file together when they come one after another (a bank being read). */
const RUN = 256;
/** Vectors read from the file kept in memory, the most recently read (a recall reads the same ones again: its candidates, then its window). */
const RECENT = 512;

/**
 * Closes the file of a store no longer reachable: a bank that leaves the index may still be read
 * by a recall that was handed it before (its slice of codes is given back at once, its exact
 * vectors stay readable as long as the recall holds the bank, as vectors in memory would).
 */
const closeOnCollect = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
});

/**
 * A private file of this process: made in a directory of its own (mode 0700) under the system's
 * temporary directory (`TMPDIR`), opened with mode 0600 and removed at once, so only this
 * process's descriptor reaches it and the system frees it when the descriptor closes, exit or
 * crash included. Null when no file can be made there.
 */
function privateFile(): number | null {
  let dir: string | null = null;
  try {
    dir = mkdtempSync(join(tmpdir(), 'memory-loop-vectors-'));
    const path = join(dir, 'bank');
    const fd = openSync(path, 'w+', 0o600);
    unlinkSync(path);
    rmdirSync(dir);
    return fd;
  } catch {
    if (dir) {
      try {
        rmdirSync(dir);
      } catch {
        // the directory stays empty: nothing of the bank is in it
      }
    }
    return null;
  }
}

/**
 * A bank's exact vectors (32-bit floats), slot by slot. A small bank holds them in memory, in
 * blocks of `BLOCK` slots grown by doubling; past `FILE_AFTER_BYTES` they move to a private file
 * of the process (`privateFile`), written in runs of consecutive slots and read back one vector
 * at a time with positional reads: the operating system's page cache holds them, not the
 * process's memory, and a recall reads only its candidates'. When no file can be made they stay
 * in memory. The values read are the values written, so cosines are the same either way.
 */
export class ExactVectors {
  private blocks: Float32Array[] = [];
  private fd: number | null = null;
  /** slots from `runStart` written to `run` but not yet to the file */
  private run: Float32Array | null = null;
  private runStart = 0;
  private runCount = 0;
  /** vectors read from the file lately, by slot (oldest first) */
  private readonly recent = new Map<number, Float32Array>();
  private slots = 0;
  /** no file could be made: memory from then on */
  private noFile = false;

  constructor(private readonly dim: number) {}

  /** Bytes of process memory held (a file's vectors are not). */
  get heapBytes(): number {
    if (this.fd !== null) return (this.run?.byteLength ?? 0) + this.recent.size * this.dim * 4;
    return this.blocks.reduce((n, b) => n + b.byteLength, 0);
  }

  /**
   * Stores a slot's vector. `reserved`: the bank already has this many slots (a bank being read
   * reserves each chunk's), so a block is made whole at once instead of doubling. False when the
   * file could not be written: every vector is then let go (the bank holds no exact vectors).
   */
  set(slot: number, v: ArrayLike<number>, reserved: number): boolean {
    this.slots = Math.max(this.slots, slot + 1);
    if (this.fd === null && !this.noFile && this.slots * this.dim * 4 > FILE_AFTER_BYTES) this.toFile();
    if (this.fd === null) {
      this.keep(slot, v, reserved);
      return true;
    }
    try {
      this.write(slot, v);
      return true;
    } catch {
      // the file could not take it (a full disk): the vectors are incomplete, so none are kept
      this.release();
      return false;
    }
  }

  /**
   * The dot product of a slot's vector with `q`, the products added left to right in 64-bit
   * floats (as recall's statements add them).
   */
  dot(slot: number, q: readonly number[]): number {
    const v = this.read(slot);
    let dot = 0;
    for (let j = 0; j < q.length; j++) dot += v[j] * q[j];
    return dot;
  }

  /** Gives the memory and the file back at once (the bank lets its exact vectors go: none reads them after). */
  release(): void {
    if (this.fd !== null) {
      closeOnCollect.unregister(this);
      closeSync(this.fd);
    }
    this.fd = null;
    this.blocks = [];
    this.run = null;
    this.recent.clear();
  }

  /** A slot's vector (a view, valid until the next call, which may reuse it). */
  read(slot: number): Float32Array {
    if (this.fd === null) {
      const at = (slot % BLOCK) * this.dim;
      return this.blocks[Math.floor(slot / BLOCK)].subarray(at, at + this.dim);
    }
    if (this.run && slot >= this.runStart && slot < this.runStart + this.runCount) {
      const at = (slot - this.runStart) * this.dim;
      return this.run.subarray(at, at + this.dim);
    }
    const kept = this.recent.get(slot);
    if (kept) return kept;
    let one: Float32Array;
    if (this.recent.size >= RECENT) {
      const [oldest, vector] = this.recent.entries().next().value!;
      this.recent.delete(oldest);
      one = vector;
    } else one = new Float32Array(this.dim);
    const into = new Uint8Array(one.buffer);
    const bytes = this.dim * 4;
    let read = 0;
    while (read < bytes) {
      const n = readSync(this.fd, into, read, bytes - read, slot * bytes + read);
      if (n === 0) break; // past the end: a slot never written reads as zeros
      read += n;
    }
    into.fill(0, read);
    this.recent.set(slot, one);
    return one;
  }

  private keep(slot: number, v: ArrayLike<number>, reserved: number): void {
    const block = Math.floor(slot / BLOCK);
    const at = (slot % BLOCK) * this.dim;
    while (this.blocks.length <= block) this.blocks.push(new Float32Array(0));
    // a block grows by doubling up to BLOCK slots (a small bank holds little); full blocks never
    // move. A block the bank already has slots for is made whole at once: doubling it there would
    // allocate and drop twice its size, which the allocator keeps as fragments after the bank is read.
    if (this.blocks[block].length <= at) {
      const whole = reserved >= (block + 1) * BLOCK;
      const slots = whole ? BLOCK : Math.min(BLOCK, Math.max(16, 2 * ((slot % BLOCK) + 1)));
      const grown = new Float32Array(slots * this.dim);
      grown.set(this.blocks[block]);
      this.blocks[block] = grown;
    }
    this.blocks[block].set(v, at);
  }

  /** Moves the vectors held in memory to a new private file (stays in memory when none can be made). */
  private toFile(): void {
    const fd = privateFile();
    if (fd === null) {
      this.noFile = true;
      return;
    }
    try {
      this.blocks.forEach((b, k) => writeAll(fd, new Uint8Array(b.buffer, b.byteOffset, b.byteLength), k * BLOCK * this.dim * 4));
    } catch {
      closeSync(fd);
      this.noFile = true;
      return;
    }
    this.fd = fd;
    closeOnCollect.register(this, fd, this);
    this.blocks = [];
    this.run = new Float32Array(RUN * this.dim);
    this.runCount = 0;
  }

  /** Adds the vector to the run of consecutive slots (written out when full or broken). */
  private write(slot: number, v: ArrayLike<number>): void {
    this.recent.delete(slot);
    const run = this.run!;
    const inRun = slot >= this.runStart && slot < this.runStart + this.runCount;
    if (!inRun && !(slot === this.runStart + this.runCount && this.runCount < RUN)) {
      this.flush();
      this.runStart = slot;
    }
    run.set(v, (slot - this.runStart) * this.dim);
    this.runCount = Math.max(this.runCount, slot - this.runStart + 1);
  }

  private flush(): void {
    if (this.runCount === 0) return;
    const bytes = this.dim * 4;
    writeAll(this.fd!, new Uint8Array(this.run!.buffer, 0, this.runCount * bytes), this.runStart * bytes);
    this.runCount = 0;
  }
}

function writeAll(fd: number, data: Uint8Array, position: number): void {
  for (let done = 0; done < data.length;) done += writeSync(fd, data, done, data.length - done, position + done);
}
